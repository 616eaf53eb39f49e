/**
 * The interactive TUI's speed, measured in a pty (see pty.ts), against its own scripted server:
 *
 *  - first frame: spawn → the idle prompt ("Ask anything") in the output; baseline `node -e 0` spawn → exit
 *    through the same pty; median of BENCH_RUNS, interleaved, after BENCH_WARMUPS. Target: ≤ 1.5× node -e 0.
 *  - CPU per 1,000 streamed tokens: `agent --resume` of a session with 10 and with 2,000 prior messages;
 *    the prompt is typed, the agent left to settle, then Enter; the agent's utime+stime (/proc) from Enter
 *    until the answer's end marker is on screen. The answer comes in 4-character chunks CHUNK_DELAY_MS apart. Median of BENCH_TUI_CPU_RUNS (default 5) per size.
 *  - resume of a long session: `agent --resume` of a 10,002-event session in two shapes, text (2,500 exchanges
 *    of a question and a Markdown answer) and tool calls (1,000 exchanges of a question, a `view` and a `bash`
 *    call with their output, and the answer; tui-sessions.ts), spawn → its last answer on screen, against a
 *    bare `node -e` that writes one line, spawn → the line on screen: through the pty (the bytes arrive) and
 *    through tmux (tui-tmux.ts: on tmux's screen, what a person sees, as the issue measured it); median of
 *    BENCH_RUNS after BENCH_WARMUPS, interleaved. Target: ≤ 2.5× the bare line, both shapes, both ways. Beside
 *    it, the text-shaped resume headless (`agent --resume <id> -p … -s`, spawn → exit), so a TUI gain that
 *    slows headless shows.
 *  - keystroke echo: in the resumed 2,000-message session, BENCH_TUI_KEYS (default 30) single characters,
 *    one every ≥ 100 ms like a fast typist; each timed from the write to the pty until the prompt line with
 *    it is in the output.
 */
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { startScriptedServer, text, type CompletionRequest, type ScriptedResponse } from "../test/support/scripted-server.js";
import { median, percentile } from "./measure.js";
import { cpuMs, hasScript, ptyAgentEnv, PtyRun } from "./pty.js";
import { ms, type Row } from "./report.js";
import { copyHome, EVENTS_PER_EXCHANGE, prepareSession, type PreparedSession, type SessionShape } from "./tui-sessions.js";
import { bareLine, hasTmux, TmuxServer } from "./tui-tmux.js";

export interface TuiBenchOptions {
  /** Path of bin/agent.js. */
  agent: string;
  cwd: string;
  /** Scratch directory (removed by the caller). */
  root: string;
  /** The environment for one run, given the run's own variables. */
  env: (extra: NodeJS.ProcessEnv) => NodeJS.ProcessEnv;
  runs: number;
  warmups: number;
  cpuRuns: number;
  keys: number;
}

export interface TuiBenchResult {
  rows: Row[];
  details: Record<string, unknown>;
}

const IDLE = "Ask anything";
const STREAM_MARKER = "TUI-BENCH-STREAM";
const STREAM_PROMPT = `${STREAM_MARKER}: explain it at length`;
const STREAM_END = "END-OF-TUI-ANSWER";
const STREAM_TOKENS = 1000;
const CHARS_PER_TOKEN = 4;
/** Pause between streamed chunks: ~1,000 chunks over a few seconds, so many frames are drawn (a burst gives only a few). */
const CHUNK_DELAY_MS = 3;
const KEY_INTERVAL_MS = 100;
/** First frame / `node -e 0` through the same pty. */
const FIRST_FRAME_RATIO_LIMIT = 1.5;
const CPU_RATIO_LIMIT = 1.25;
const ECHO_LIMIT_MS = 50;
const MODEL = "bench-model";
/** Prior messages for 10,002 events (session.start, system.message, then the exchanges) in each shape. */
const LONG_EVENTS = 10_000;
const longMessages = (shape: SessionShape) => (LONG_EVENTS / EVENTS_PER_EXCHANGE[shape]) * 2;
/** Resume → last answer on screen / a bare `node -e` line, through the same pty or tmux. */
const LONG_RESUME_RATIO_LIMIT = 2.5;
const BARE_LINE = "BARE-NODE-LINE";
const SHAPES: readonly SessionShape[] = ["tools", "text"];

/** ~4,000 characters of Markdown prose in short paragraphs, ending with STREAM_END. */
function streamText(): string {
  const words = ["the", "terminal", "shows", "each", "token", "as", "it", "arrives,", "and", "history", "stays", "put."];
  const total = STREAM_TOKENS * CHARS_PER_TOKEN - STREAM_END.length - 1;
  let out = "";
  for (let i = 0; out.length < total; i++) out += (words[i % words.length] ?? "x") + (i % 40 === 39 ? "\n\n" : " ");
  return `${out.slice(0, total)} ${STREAM_END}`;
}

/** Wall time of one headless run, spawn → exit; a failed run fails the bench (its figure would mean nothing). */
function timeHeadless(agent: string, cwd: string, env: NodeJS.ProcessEnv, args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [agent, ...args], { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) =>
    child.on("exit", (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`headless resume exited ${code}: ${stderr}`)))),
  );
}

const delay = (msToWait: number) => new Promise((resolve) => setTimeout(resolve, msToWait));

/** One row per shape: resume → last answer on screen against the bare line, through `via`. */
function longResumeRows(via: "pty" | "tmux", times: ReadonlyMap<SessionShape, number[]>, bare: number[]): Row[] {
  return SHAPES.map((shape) => {
    const runs = times.get(shape) ?? [];
    const ratio = median(runs) / median(bare);
    return {
      name: `TUI --resume of a 10,002-event session of ${shape === "tools" ? "tool calls" : "text"} → last answer on screen, through ${via} (median of ${runs.length}) / a bare node -e line`,
      agent: `${ms(median(runs))} (min ${Math.min(...runs).toFixed(1)})`,
      baseline: `${ms(median(bare))} (min ${Math.min(...bare).toFixed(1)})`,
      ratio,
      target: `≤ ${LONG_RESUME_RATIO_LIMIT.toFixed(2)}×`,
      pass: ratio <= LONG_RESUME_RATIO_LIMIT,
      data: {
        via,
        shape,
        resumeMs: runs,
        bareLineMs: bare,
        medianMs: median(runs),
        bareMedianMs: median(bare),
        events: 2 + LONG_EVENTS,
        targetRatio: LONG_RESUME_RATIO_LIMIT,
      },
    };
  });
}

export async function benchTui(options: TuiBenchOptions): Promise<TuiBenchResult> {
  if (!hasScript()) {
    const row: Row = {
      name: "TUI (needs util-linux `script` for a pty)",
      agent: "n/a",
      baseline: "—",
      ratio: undefined,
      target: "—",
      pass: undefined,
      data: {},
    };
    return { rows: [row], details: { tui: "skipped: no util-linux script" } };
  }
  const answer = streamText();
  const server = await startScriptedServer({
    model: MODEL,
    responder: (request: CompletionRequest): ScriptedResponse => {
      const last = request.body.messages.at(-1);
      const content = typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "");
      if (content.includes(STREAM_MARKER)) {
        const usage = { prompt_tokens: 1000, completion_tokens: STREAM_TOKENS };
        return text(answer, { chunkSize: CHARS_PER_TOKEN, chunkDelayMs: CHUNK_DELAY_MS, usage });
      }
      return text("ok");
    },
  });
  let homes = 0;
  const freshDir = (tag: string): string => {
    const dir = path.join(options.root, `tui-${tag}-${homes++}`);
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  const envFor = (home: string): NodeJS.ProcessEnv => options.env(ptyAgentEnv(home, server.baseUrl, MODEL));
  const started: PtyRun[] = [];
  const agentPty = (home: string, args: string[] = []): PtyRun => {
    const run = new PtyRun([process.execPath, options.agent, ...args], { cwd: options.cwd, env: envFor(home), cols: 100, rows: 30 });
    started.push(run);
    return run;
  };

  /** Resume `session` from a fresh copy; wait until its last answer and the prompt are drawn and it has settled. */
  const resume = async (session: PreparedSession): Promise<{ pty: PtyRun; pid: number; readyMs: number }> => {
    const pty = agentPty(copyHome(session, freshDir(`resume${session.messages}`)), ["--resume", session.id]);
    const ready = await pty.waitForText(session.lastAnswerMarker);
    await pty.waitForText(IDLE);
    const pid = await pty.pid();
    await pty.settle(pid);
    return { pty, pid, readyMs: ready - pty.startedAt };
  };

  try {
    // 1. First frame.
    const firstFrames: number[] = [];
    const nodeNoops: number[] = [];
    const nodePrints: number[] = [];
    const engineReady: number[] = [];
    for (let round = 0; round < options.warmups + options.runs; round++) {
      const pty = agentPty(freshDir("first"));
      const shown = await pty.waitForText(IDLE);
      // The first frame comes before the engine has loaded (the footer says "Starting…"); then the footer shows the cwd.
      const usable = await pty.waitForText(`Manual Approval · ${MODEL} · ${options.cwd}`);
      await pty.stop(await pty.pid());
      const noop = new PtyRun([process.execPath, "-e", "0"], { cwd: options.cwd, env: options.env({}) });
      await noop.wait();
      const noopMs = performance.now() - noop.startedAt;
      const print = new PtyRun([process.execPath, "-e", `process.stdout.write("${IDLE}")`], { cwd: options.cwd, env: options.env({}) });
      const printed = await print.waitForText(IDLE);
      await print.wait();
      if (round < options.warmups) continue;
      firstFrames.push(shown - pty.startedAt);
      engineReady.push(usable - pty.startedAt);
      nodeNoops.push(noopMs);
      nodePrints.push(printed - print.startedAt);
    }
    const requestsBeforePrompt = server.requests.length;

    // 2. CPU per 1,000 streamed tokens, at 10 and 2,000 prior messages.
    const sessions = [10, 2000].map((n) => prepareSession(freshDir(`template${n}`), options.cwd, n, MODEL));
    const cpu = new Map<number, { cpuMs: number[]; wallMs: number[]; resumeMs: number[] }>(
      sessions.map((s) => [s.messages, { cpuMs: [], wallMs: [], resumeMs: [] }]),
    );
    for (let round = 0; round < 1 + options.cpuRuns; round++) {
      for (const session of sessions) {
        const { pty, pid, readyMs } = await resume(session);
        const typedFrom = pty.raw.length;
        pty.write(STREAM_PROMPT);
        await pty.waitForText(STREAM_PROMPT.slice(-20), typedFrom);
        await pty.settle(pid);
        const from = pty.raw.length;
        const cpuBefore = cpuMs(pid);
        const sent = performance.now();
        pty.write("\r");
        const ended = await pty.waitForText(STREAM_END, from, 60_000);
        const cpuAfter = cpuMs(pid);
        await pty.stop(pid);
        if (round === 0) continue;
        const entry = cpu.get(session.messages);
        entry?.cpuMs.push(cpuAfter - cpuBefore);
        entry?.wallMs.push(ended - sent);
        entry?.resumeMs.push(readyMs);
      }
    }

    // 2b. Resume of a 10,002-event session in both shapes, against a bare `node -e` line: through the pty and
    // through tmux (when there is one), interleaved; and the text-shaped one headless (to exit).
    const longSessions = SHAPES.map((shape) => prepareSession(freshDir(`template-long-${shape}`), options.cwd, longMessages(shape), MODEL, shape));
    const tmux = hasTmux() ? new TmuxServer(100, 30) : undefined;
    const longPty = new Map<SessionShape, number[]>(SHAPES.map((shape) => [shape, []]));
    const longTmux = new Map<SessionShape, number[]>(SHAPES.map((shape) => [shape, []]));
    const barePty: number[] = [];
    const bareTmux: number[] = [];
    const longHeadless: number[] = [];
    try {
      for (let round = 0; round < options.warmups + options.runs; round++) {
        const keep = round >= options.warmups;
        const bare = new PtyRun(bareLine(BARE_LINE), { cwd: options.cwd, env: options.env({}), cols: 100, rows: 30 });
        started.push(bare);
        const bareShown = await bare.waitForText(BARE_LINE);
        await bare.stop();
        if (keep) barePty.push(bareShown - bare.startedAt);
        if (tmux) {
          const shown = await tmux.timeUntilShown(bareLine(BARE_LINE), BARE_LINE, { cwd: options.cwd, env: options.env({}) });
          if (keep) bareTmux.push(shown);
        }
        for (const session of longSessions) {
          const { pty, pid, readyMs } = await resume(session);
          await pty.stop(pid);
          if (keep) longPty.get(session.shape)?.push(readyMs);
          if (tmux) {
            const home = copyHome(session, freshDir(`resume-long-tmux-${session.shape}`));
            const shown = await tmux.timeUntilShown([process.execPath, options.agent, "--resume", session.id], session.lastAnswerMarker, {
              cwd: options.cwd,
              env: envFor(home),
            });
            if (keep) longTmux.get(session.shape)?.push(shown);
          }
        }
        const text = longSessions.find((session) => session.shape === "text") as PreparedSession;
        const headlessMs = await timeHeadless(options.agent, options.cwd, envFor(copyHome(text, freshDir("resume-long-p"))), [
          "--resume",
          text.id,
          "-p",
          "one more",
          "-s",
        ]);
        if (keep) longHeadless.push(headlessMs);
      }
    } finally {
      await tmux?.close();
    }

    // 3. Keystroke echo with 2,000 messages in the history.
    const big = sessions[1] as PreparedSession;
    const { pty, pid } = await resume(big);
    const echoes: number[] = [];
    const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
    let typed = "";
    try {
      for (let i = 0; i < options.keys; i++) {
        const key = alphabet[i % alphabet.length] as string;
        typed += key;
        const from = pty.raw.length;
        const sent = performance.now();
        pty.write(key);
        const echoed = await pty.waitForText(`› ${typed}`, from, 5_000);
        echoes.push(echoed - sent);
        const elapsed = performance.now() - sent;
        if (elapsed < KEY_INTERVAL_MS) await delay(KEY_INTERVAL_MS - elapsed);
      }
    } finally {
      await pty.stop(pid);
    }

    const first = median(firstFrames);
    const noop = median(nodeNoops);
    const small = cpu.get(10) as { cpuMs: number[]; wallMs: number[]; resumeMs: number[] };
    const large = cpu.get(2000) as { cpuMs: number[]; wallMs: number[]; resumeMs: number[] };
    const cpuSmall = median(small.cpuMs);
    const cpuLarge = median(large.cpuMs);
    const echoMedian = median(echoes);
    const echoP95 = percentile(echoes, 95);
    const rows: Row[] = [
      {
        name: `TUI first frame (pty, median of ${firstFrames.length}): agent / node -e 0`,
        agent: `${ms(first)} (min ${Math.min(...firstFrames).toFixed(1)})`,
        baseline: `${ms(noop)} (min ${Math.min(...nodeNoops).toFixed(1)})`,
        ratio: first / noop,
        target: `≤ ${FIRST_FRAME_RATIO_LIMIT.toFixed(2)}×`,
        pass: first / noop <= FIRST_FRAME_RATIO_LIMIT,
        data: {
          firstFrameMs: firstFrames,
          nodeNoopMs: nodeNoops,
          medianMs: first,
          baselineMedianMs: noop,
          targetRatio: FIRST_FRAME_RATIO_LIMIT,
          nodePrintMedianMs: median(nodePrints),
          requestsBeforePrompt,
        },
      },
      {
        name: '  then: launch → engine ready (footer leaves "Starting…") / first frame',
        agent: ms(median(engineReady)),
        baseline: ms(first),
        ratio: median(engineReady) / first,
        target: "—",
        pass: undefined,
        data: { engineReadyMs: engineReady, medianMs: median(engineReady) },
      },
      {
        name: `TUI CPU per 1,000 streamed tokens: 2,000 / 10 prior messages (median of ${large.cpuMs.length})`,
        agent: ms(cpuLarge),
        baseline: ms(cpuSmall),
        ratio: cpuLarge / cpuSmall,
        target: `≤ ${CPU_RATIO_LIMIT.toFixed(2)}×`,
        pass: cpuLarge / cpuSmall <= CPU_RATIO_LIMIT,
        data: { cpuMs2000: large.cpuMs, cpuMs10: small.cpuMs, wallMs2000: large.wallMs, wallMs10: small.wallMs, targetRatio: CPU_RATIO_LIMIT },
      },
      {
        name: "  of which: Enter → end of answer on screen (wall), 2,000 / 10",
        agent: ms(median(large.wallMs)),
        baseline: ms(median(small.wallMs)),
        ratio: median(large.wallMs) / median(small.wallMs),
        target: "—",
        pass: undefined,
        data: { wallMedian2000: median(large.wallMs), wallMedian10: median(small.wallMs) },
      },
      {
        name: "TUI --resume → last past answer on screen: 2,000 / 10 prior messages",
        agent: ms(median(large.resumeMs)),
        baseline: ms(median(small.resumeMs)),
        ratio: median(large.resumeMs) / median(small.resumeMs),
        target: "—",
        pass: undefined,
        data: { resumeMs2000: large.resumeMs, resumeMs10: small.resumeMs },
      },
      ...longResumeRows("pty", longPty, barePty),
      ...(tmux ? longResumeRows("tmux", longTmux, bareTmux) : []),
      {
        name: `  and: the text-shaped resume headless (-p, spawn → exit; median of ${longHeadless.length})`,
        agent: ms(median(longHeadless)),
        baseline: "—",
        ratio: undefined,
        target: "—",
        pass: undefined,
        data: { headlessResumeMs: longHeadless, headlessMedianMs: median(longHeadless) },
      },
      {
        name: `TUI keystroke echo, 2,000 messages in history (${echoes.length} keys): median / p95`,
        agent: `${ms(echoMedian)} / ${ms(echoP95)}`,
        baseline: "—",
        ratio: undefined,
        target: `p95 < ${ECHO_LIMIT_MS} ms`,
        pass: echoP95 < ECHO_LIMIT_MS,
        data: { echoMs: echoes, medianMs: echoMedian, p95Ms: echoP95, maxMs: Math.max(...echoes), targetMs: ECHO_LIMIT_MS, keyIntervalMs: KEY_INTERVAL_MS },
      },
    ];
    return { rows, details: { tui: Object.fromEntries(rows.map((row) => [row.name.trim(), row.data])) } };
  } finally {
    // After a failure, agents may still be running: end them before the server goes.
    for (const run of started.filter((r) => !r.exited)) await run.stop(await run.pid(500).catch(() => undefined));
    await server.close();
  }
}

/**
 * Where the TUI's CPU goes when ten background agents start and stream: the scenario of bench/tui-agents.ts
 * (one prompt → ten background `explore` agents streaming) in a pty under `node --cpu-prof`, then the samples of
 * two windows (Enter → the first key's echo; the streams) by self time and by inclusive time per function.
 *
 *   node scripts/build.mjs && npx tsx bench/profile-tui-agents.ts [cpuprofile-to-keep]
 *
 * Env: PROFILE_FROM_ENTER=1 (the start row: a fresh TUI, keys every 50 ms from Enter on, each slow key's window
 * apart; PROFILE_WARM=1: after one exchange, as otherwise), PROFILE_CPU_ONLY=1 (no profiler: only the process's CPU time in those windows, and the echoes), BENCH_AGENT (another build's bin/agent.js), PROFILE_NODE_FLAGS (more node flags for the agent, e.g.
 * --trace-gc), PROFILE_MARKS (a file for the windows' bounds, process.hrtime in µs, the clock of the profile's
 * timestamps, to cut the kept profile by hand).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startScriptedServer, text, toolCalls, type CompletionRequest } from "../test/support/scripted-server.js";
import { cpuMs, PtyRun } from "./pty.js";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const AGENT = process.env["BENCH_AGENT"] ?? fileURLToPath(new URL("../bin/agent.js", import.meta.url));
const MODEL = "bench-model";
const MANY = 10;
/** PROFILE_CPU_ONLY=1: no profiler (its overhead), only the CPU time and the echoes. */
const cpuOnly = process.env["PROFILE_CPU_ONLY"] === "1";
/** PROFILE_FROM_ENTER=1: the bench's start row (fresh TUI, twelve keys from Enter on) instead of keys once ten run. */
const fromEnter = process.env["PROFILE_FROM_ENTER"] === "1";
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

function frameName(frame: CallFrame): string {
  const file = frame.url ? path.basename(frame.url) : "";
  return `${frame.functionName || "(anonymous)"} ${file}${file ? `:${frame.lineNumber + 1}` : ""}`;
}

function analyse(profile: Profile, fromUs: number, toUs: number, label: string, rows = 25): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    if (time < fromUs || time > toUs) continue;
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const id = profile.samples[i] as number;
    const top = (byId.get(id) as ProfileNode).callFrame;
    if (top.functionName === "(idle)" || top.functionName === "(program)") continue;
    total += dt;
    self.set(frameName(top), (self.get(frameName(top)) ?? 0) + dt);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = frameName((byId.get(at) as ProfileNode).callFrame);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
    }
  }
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, ms]) => `  ${ms.toFixed(1).padStart(7)} ms  ${name}`)
      .join("\n");
  console.log(`\n== ${label}: ${((toUs - fromUs) / 1000).toFixed(0)} ms wall, ${total.toFixed(0)} ms on the CPU (idle excluded)`);
  console.log(`-- self\n${top(self, rows)}`);
  console.log(`-- inclusive\n${top(inclusive, rows + 20)}`);
}

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), "agent-profile-agents-"));
  const dir = path.join(root, "prof");
  const home = path.join(root, "home");
  mkdirSync(home);
  const answer = "each agent streams its answer while the person types. ".repeat(40).slice(0, 2000);
  const server = await startScriptedServer({
    model: MODEL,
    responder: (request: CompletionRequest) => {
      if (request.headers["x-initiator"] === "sub-agent")
        return text(answer, { chunkSize: 4, chunkDelayMs: 15, usage: { prompt_tokens: 200, completion_tokens: 500 } });
      const last = request.body.messages.at(-1);
      if (typeof last?.content !== "string" || !last.content.includes("AGENTS-PROFILE")) return text("ok");
      return toolCalls(
        Array.from({ length: MANY }, (_, index) => ({
          id: `bench_task_${index}`,
          name: "task",
          arguments: { description: `stream ${index}`, prompt: "Stream your answer.", agent_type: "explore", name: `s${index}`, mode: "background" },
        })),
      );
    },
  });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    AGENT_HOME: home,
    TERM: "xterm-256color",
    LANG: "C.UTF-8",
    OPENAI_BASE_URL: server.baseUrl,
    OPENAI_API_KEY: "test",
    AGENT_MODEL: MODEL,
    AGENT_SUBAGENT_MAX_CONCURRENT: String(MANY),
  };
  delete env["NODE_OPTIONS"];
  const pty = new PtyRun(
    [
      process.execPath,
      ...(process.env["PROFILE_NODE_FLAGS"] ?? "").split(" ").filter(Boolean),
      ...(cpuOnly ? [] : ["--cpu-prof", "--cpu-prof-dir", dir]),
      AGENT,
    ],
    { cwd: root, env, cols: 120, rows: 40 },
  );
  try {
    await pty.waitForText(`Manual Approval · ${MODEL}`);
    const pid = await pty.pid();
    await pty.settle(pid);
    let at = pty.raw.length;
    if (!fromEnter || process.env["PROFILE_WARM"] === "1") {
      pty.write("hello\r");
      await pty.waitForText("ok", at);
      await pty.settle(pid);
      at = pty.raw.length;
    }
    pty.write(`AGENTS-PROFILE ${MANY}`);
    await pty.waitForText(`AGENTS-PROFILE ${MANY}`, at);
    await pty.settle(pid);
    const from = pty.raw.length;
    const cpuAtEnter = cpuMs(pid);
    const enter = nowUs();
    pty.write("\r");
    if (fromEnter) {
      // As the bench's start row does: a fresh TUI, keys one every 50 ms from Enter on; each key's window apart.
      const windows: { key: number; sent: number; echoed: number; cpu: number }[] = [];
      let typed = "";
      for (let key = 0; key < 12; key++) {
        typed += "abcdefghijkl"[key] as string;
        at = pty.raw.length;
        const sent = nowUs();
        const cpuAtSend = cpuMs(pid);
        pty.write(typed.at(-1) as string);
        await pty.waitForText(`› ${typed}`, at, 10_000);
        windows.push({ key, sent, echoed: nowUs(), cpu: cpuMs(pid) - cpuAtSend });
        const left = 50 - (nowUs() - sent) / 1000;
        if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
      }
      const last = nowUs();
      const cpuAtLast = cpuMs(pid);
      await pty.stop(pid);
      console.log(`agent CPU: Enter → the 12th key's echo ${(cpuAtLast - cpuAtEnter).toFixed(0)} ms`);
      console.log(`echoes: ${windows.map((w) => ((w.echoed - w.sent) / 1000).toFixed(0)).join(", ")} ms`);
      // The agent's own CPU (10 ms ticks) between each key's write and its echo: what a key waited for, whatever the load.
      console.log(`CPU while each key waited: ${windows.map((w) => w.cpu.toFixed(0)).join(", ")} ms`);
      if (cpuOnly) return;
      const file = readdirSync(dir).find((name) => name.endsWith(".cpuprofile"));
      if (!file) throw new Error("no profile was written");
      if (process.argv[2]) copyFileSync(path.join(dir, file), process.argv[2]);
      const profile = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Profile;
      if (process.env["PROFILE_MARKS"]) writeFileSync(process.env["PROFILE_MARKS"], JSON.stringify({ start: profile.startTime, enter, windows }));
      analyse(profile, enter, last, "Enter → the 12th key's echo");
      for (const w of windows.filter((w) => w.echoed - w.sent > 30_000)) analyse(profile, w.sent, w.echoed, `key ${w.key + 1}`, 12);
      return;
    }
    await pty.waitForText(`${MANY} running`, from, 30_000);
    const streaming = nowUs();
    // As the bench does: keys typed once the panel shows ten running, while their streams begin.
    const echoes: number[] = [];
    for (const typed of ["a", "ab", "abc"]) {
      at = pty.raw.length;
      const sent = nowUs();
      pty.write(typed.at(-1) as string);
      await pty.waitForText(`› ${typed}`, at, 10_000);
      echoes.push((nowUs() - sent) / 1000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const echo = nowUs();
    const cpuAtEcho = cpuMs(pid);
    await pty.waitForText(`${MANY} idle`, from, 60_000);
    const idle = nowUs();
    await pty.settle(pid, 300, 10_000);
    const cpuAtIdle = cpuMs(pid);
    await pty.stop(pid);
    // utime+stime from /proc: what the process really used, whatever else the machine was running.
    console.log(
      `agent CPU: Enter → the third key's echo ${(cpuAtEcho - cpuAtEnter).toFixed(0)} ms; Enter → ten idle and settled ${(cpuAtIdle - cpuAtEnter).toFixed(0)} ms`,
    );
    if (cpuOnly) {
      console.log(
        `Enter → ten running ${((streaming - enter) / 1000).toFixed(0)} ms; three keys then echoed in ${echoes.map((e) => e.toFixed(0)).join(", ")} ms`,
      );
      return;
    }
    const file = readdirSync(dir).find((name) => name.endsWith(".cpuprofile"));
    if (!file) throw new Error("no profile was written");
    if (process.argv[2]) copyFileSync(path.join(dir, file), process.argv[2]);
    const profile = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Profile;
    if (process.env["PROFILE_MARKS"]) writeFileSync(process.env["PROFILE_MARKS"], JSON.stringify({ enter, streaming, echo, idle, echoes }));
    console.log(
      `Enter → ten running ${((streaming - enter) / 1000).toFixed(0)} ms; three keys then echoed in ${echoes.map((e) => e.toFixed(0)).join(", ")} ms; → ten idle ${((idle - enter) / 1000).toFixed(0)} ms`,
    );
    analyse(profile, enter, streaming, "Enter → ten running");
    analyse(profile, streaming, echo, "ten running → the third key's echo");
    analyse(profile, enter, idle, "Enter → ten idle");
  } finally {
    await pty.stop();
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`profile-tui-agents: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});

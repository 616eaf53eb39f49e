/**
 * `npm run bench`: start-up, a two-turn `-p` run, peak RSS, a 2,000-token streamed answer, whether the
 * headless path loads ink/react, what a no-op hook costs per tool call, the first shell permission decision in
 * a process (simple command lines against a bare `ls`), memory's board load (and that memory off loads none of
 * it), and the installed size of the packed package. Every timing is a ratio to a baseline measured in the same
 * run (processes interleaved, medians
 * over BENCH_RUNS runs after BENCH_WARMUPS warm-ups). Results: a table on stdout and
 * bench/results.json. Exits 0 even when a target is missed: this is a measurement, not a test.
 *
 * Then the interactive TUI in a pty (bench/tui.ts): first frame, CPU per 1,000 streamed tokens at 10 and
 * 2,000 prior messages, resume of a 10,002-event session (TUI and headless), keystroke echo with 2,000
 * messages in the history. Then ten background agents streaming at once in the TUI (bench/tui-agents.ts): CPU
 * per streamed token against one agent, and keystroke echo while they stream.
 *
 * Env: BENCH_RUNS (default 15), BENCH_WARMUPS (default 2), BENCH_RSS_RUNS (default 5),
 * BENCH_TUI_CPU_RUNS (default 5), BENCH_TUI_KEYS (default 30).
 */
import { existsSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { measureInstallSize } from "./install-size.js";
import { checkHeadlessModules, type ModuleReport } from "./module-check.js";
import { detectRssMethod, peakRssMb, stdoutHas, timeInterleaved, type BenchCommand, type Stats } from "./measure.js";
import { formatTable, mb, ms, ratioRow, summaryLine, writeResults, type Row } from "./report.js";
import { benchHooks } from "./hooks.js";
import { benchShellDecision } from "./shell-decision.js";
import { benchMcp } from "./mcp.js";
import { benchWires } from "./wires.js";
import { benchSubagent } from "./subagents.js";
import { benchTodoStore } from "./todo-store.js";
import { benchMemory } from "./memory.js";
import { benchContext } from "./context.js";
import { benchRewind } from "./rewind.js";
import { benchSdkServer } from "./sdk-server.js";
import { benchTui } from "./tui.js";
import { benchBackgroundAgents } from "./tui-agents.js";
import { createWorkspace, FINAL_TEXT, LONG_PROMPT, LONG_TAIL, LONG_TEXT, startBenchServer, TOOL_PROMPT } from "./scenario.js";

const repo = (relative: string) => fileURLToPath(new URL(`../${relative}`, import.meta.url));
const AGENT = repo("bin/agent.js");
const BASELINE = repo("bench/baseline-openai.mjs");
const DIST = repo("dist");
const RESULTS = repo("bench/results.json");

function envInt(name: string, fallback: number, min: number): number {
  const value = Number(process.env[name]);
  return process.env[name] !== undefined && Number.isInteger(value) && value >= min ? value : fallback;
}
const RUNS = envInt("BENCH_RUNS", 15, 1);
const WARMUPS = envInt("BENCH_WARMUPS", 2, 0);
const RSS_RUNS = envInt("BENCH_RSS_RUNS", 5, 1);
const TUI_CPU_RUNS = envInt("BENCH_TUI_CPU_RUNS", 5, 1);
const TUI_KEYS = envInt("BENCH_TUI_KEYS", 30, 1);

/** The parent's environment without anything that would change how node starts in the children. */
function cleanEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env["NODE_OPTIONS"];
  delete env["NODE_DEBUG"];
  return env;
}

const longCheck: BenchCommand["check"] = (result) =>
  result.stdout.includes(LONG_TAIL) && result.stdout.length >= LONG_TEXT.length
    ? undefined
    : `stdout is not the full long answer (${result.stdout.length} chars)`;

function describe(stats: Stats): string {
  const tail = Number.isFinite(stats.tailMedian) ? ms(stats.tailMedian) : "n/a";
  return `median ${ms(stats.median)}, min ${ms(stats.min)}, max ${ms(stats.max)}; last output → exit ${tail}; drained after exit ${ms(stats.drainMedian)}`;
}

function must<T>(map: Map<string, T>, key: string): T {
  const value = map.get(key);
  if (value === undefined) throw new Error(`bench: no result for ${key}`);
  return value;
}

async function main(): Promise<void> {
  if (!existsSync(repo("dist/cli.js"))) throw new Error("dist/cli.js is missing: run `npm run build` first (npm run bench does).");
  const ws = createWorkspace();
  const server = await startBenchServer(ws.file);
  const rows: Row[] = [];
  const details: Record<string, unknown> = {};
  try {
    const providerEnv = { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "test", AGENT_MODEL: "bench-model" };
    const agentCmd = (label: string, prompt: string, check: BenchCommand["check"]): BenchCommand => ({
      label,
      args: [AGENT, "-p", prompt],
      cwd: ws.cwd,
      env: () => cleanEnv({ ...providerEnv, AGENT_HOME: ws.freshHome() }),
      check,
    });
    const baselineCmd = (label: string, mode: "tool" | "long", fetch: "builtin" | "node-http", check: BenchCommand["check"]): BenchCommand => ({
      label,
      args: [BASELINE],
      cwd: ws.cwd,
      env: () => cleanEnv({ ...providerEnv, BASELINE_MODE: mode, BASELINE_FETCH: fetch, BASELINE_PROMPT: mode === "long" ? LONG_PROMPT : TOOL_PROMPT }),
      check,
    });

    console.log(
      `agent bench — node ${process.version}, ${os.cpus()[0]?.model ?? "cpu?"} ×${os.cpus().length}; ${RUNS} runs after ${WARMUPS} warm-ups (BENCH_RUNS, BENCH_WARMUPS)\n`,
    );

    // 1. Start-up.
    const version: BenchCommand = { label: "agent --version", args: [AGENT, "--version"], cwd: ws.cwd, env: () => cleanEnv({}), check: stdoutHas("agent ") };
    const nodeNoop: BenchCommand = { label: "node -e 0", args: ["-e", "0"], cwd: ws.cwd, env: () => cleanEnv({}) };
    const startup = await timeInterleaved([version, nodeNoop], WARMUPS, RUNS);
    rows.push(ratioRow("start-up: agent --version / node -e 0", must(startup, version.label), must(startup, nodeNoop.label), 2));

    // 2. Two-turn -p run (view, then a short answer).
    const agentTool = agentCmd("agent -p (2 turns)", TOOL_PROMPT, stdoutHas(FINAL_TEXT));
    const baseTool = baselineCmd("openai script (2 turns, built-in fetch)", "tool", "builtin", stdoutHas(FINAL_TEXT));
    const baseToolHttp = baselineCmd("openai script (2 turns, node:http fetch)", "tool", "node-http", stdoutHas(FINAL_TEXT));
    const twoTurn = await timeInterleaved([agentTool, baseTool, baseToolHttp], WARMUPS, RUNS);
    rows.push(ratioRow("2-turn -p: agent / openai script (built-in fetch)", must(twoTurn, agentTool.label), must(twoTurn, baseTool.label), 1.2));

    // Peak RSS of the same exchange.
    const rssMethod = await detectRssMethod(ws.cwd);
    const agentRss = await peakRssMb(agentTool, rssMethod, RSS_RUNS);
    const baseRss = await peakRssMb(baseTool, rssMethod, RSS_RUNS);
    rows.push({
      name: `peak RSS, 2-turn -p (${rssMethod}, median of ${RSS_RUNS})`,
      agent: mb(agentRss),
      baseline: mb(baseRss),
      ratio: agentRss !== undefined && baseRss !== undefined ? agentRss / baseRss : undefined,
      target: "agent ≤ 100 MB",
      pass: agentRss === undefined ? undefined : agentRss <= 100,
      data: { method: rssMethod, agentMb: agentRss ?? null, baselineMb: baseRss ?? null, targetMb: 100 },
    });

    // The undici keep-alive effect, shown on the baseline alone.
    const builtin = must(twoTurn, baseTool.label);
    const nodeHttp = must(twoTurn, baseToolHttp.label);
    const keepAlive = ratioRow("undici effect: openai script built-in fetch / node:http fetch", builtin, nodeHttp, undefined);
    rows.push({ ...keepAlive, data: { ...keepAlive.data, extraMs: builtin.median - nodeHttp.median } });
    rows.push({
      name: "  of which: last output → exit, built-in / node:http",
      agent: ms(builtin.tailMedian),
      baseline: ms(nodeHttp.tailMedian),
      ratio: undefined,
      target: "—",
      pass: undefined,
      data: { builtinTailMs: builtin.tailMedian, nodeHttpTailMs: nodeHttp.tailMedian },
    });
    rows.push(ratioRow("2-turn -p: agent / openai script (node:http fetch)", must(twoTurn, agentTool.label), nodeHttp, undefined));

    // MCP: the same run with three configured stdio servers it never calls, against none (bench/mcp.ts).
    const mcp = await benchMcp({ agent: AGENT, cwd: ws.cwd, freshHome: () => ws.freshHome(), env: cleanEnv, providerEnv, runs: RUNS, warmups: WARMUPS });
    rows.push(...mcp.rows);
    const mcpRuns = mcp.timings;

    // 3. 2,000-token streamed answer.
    const agentLong = agentCmd("agent -p (2,000 tokens)", LONG_PROMPT, longCheck);
    const baseLong = baselineCmd("openai script (2,000 tokens, built-in fetch)", "long", "builtin", longCheck);
    const baseLongHttp = baselineCmd("openai script (2,000 tokens, node:http fetch)", "long", "node-http", longCheck);
    const long = await timeInterleaved([agentLong, baseLong, baseLongHttp], WARMUPS, RUNS);
    rows.push(ratioRow("2,000-token stream: agent / openai script (built-in fetch)", must(long, agentLong.label), must(long, baseLong.label), 1.2));
    rows.push(ratioRow("2,000-token stream: agent / openai script (node:http fetch)", must(long, agentLong.label), must(long, baseLongHttp.label), undefined));
    // The same answer over the Responses API and Anthropic Messages, against Chat Completions (bench/wires.ts).
    rows.push(
      ...(await benchWires({ agent: AGENT, cwd: ws.cwd, freshHome: () => ws.freshHome(), env: cleanEnv, providerEnv, runs: RUNS, warmups: WARMUPS })).rows,
    );

    // 4. ink/react on the headless path.
    const modules: ModuleReport = await checkHeadlessModules(agentCmd("agent -p (module tracker)", TOOL_PROMPT, stdoutHas(FINAL_TEXT)), DIST);
    rows.push({
      name: "headless -p loads ink/react",
      agent: modules.uiLoaded === "no" && !modules.detectable ? "no*" : modules.uiLoaded,
      baseline: "—",
      ratio: undefined,
      target: "no",
      pass: modules.uiLoaded === "unknown" ? undefined : modules.uiLoaded === "no",
      data: { ...modules },
    });

    // 5. A no-op hook's cost per tool call.
    rows.push(await benchHooks({ agent: AGENT, cwd: ws.cwd, freshHome: () => ws.freshHome(), env: cleanEnv, providerEnv, runs: RUNS, warmups: WARMUPS }));
    // The first shell permission decision in a process: simple command lines against a bare `ls`, and one for tree-sitter.
    rows.push(
      ...(await benchShellDecision({ agent: AGENT, cwd: ws.cwd, freshHome: () => ws.freshHome(), env: cleanEnv, providerEnv, runs: RUNS, warmups: WARMUPS })),
    );
    // A sync subagent's overhead against the same read done by the main agent.
    rows.push(await benchSubagent({ agent: AGENT, cwd: ws.cwd, freshHome: () => ws.freshHome(), env: cleanEnv, providerEnv, runs: RUNS, warmups: WARMUPS }));
    // The todo store's sql.js stays unloaded until the sql tool is first called.
    rows.push(...(await benchTodoStore({ agent: AGENT, cwd: ws.cwd, freshHome: () => ws.freshHome(), env: cleanEnv, providerEnv })));
    // Memory: the board from 1,000 memories in ≤ 5 ms; a run with memory off loads none of it.
    rows.push(...(await benchMemory({ agent: AGENT, cwd: ws.cwd, freshHome: () => ws.freshHome(), env: cleanEnv, providerEnv, runs: RUNS })));
    // /context on a 10,002-event session, in process (no model call).
    rows.push(await benchContext(RUNS));
    // Rewind: a 1 MB snapshot, and /rewind's list on a 10,002-event session (issue 21).
    rows.push(...(await benchRewind(RUNS)));
    // The Copilot SDK driving agent: its start-up, and a streamed answer through it against -p.
    rows.push(
      ...(await benchSdkServer({
        agent: AGENT,
        driver: repo("bench/sdk-driver.mjs"),
        cwd: ws.cwd,
        freshHome: () => ws.freshHome(),
        env: cleanEnv,
        baseUrl: server.baseUrl,
        runs: RUNS,
        warmups: WARMUPS,
      })),
    );
    // 6. Installed size: npm pack, then npm install of the tarball into an empty directory.
    const INSTALL_TARGET_MB = 20;
    try {
      const size = measureInstallSize(repo(""));
      const installed = size.diskMb ?? size.bytesMb;
      rows.push({
        name: `installed size (npm pack → npm install; ${size.diskMb === undefined ? "file sizes" : "du"})`,
        agent: mb(installed),
        baseline: "—",
        ratio: undefined,
        target: `≤ ${INSTALL_TARGET_MB} MB`,
        pass: installed <= INSTALL_TARGET_MB,
        data: { ...size, targetMb: INSTALL_TARGET_MB },
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`bench: measuring the installed size failed: ${message}`);
      rows.push({
        name: "installed size",
        agent: "error",
        baseline: "—",
        ratio: undefined,
        target: `≤ ${INSTALL_TARGET_MB} MB`,
        pass: false,
        data: { error: message },
      });
    }

    // 6. The interactive TUI in a pty.
    try {
      const tui = await benchTui({
        agent: AGENT,
        cwd: ws.cwd,
        root: ws.root,
        env: cleanEnv,
        runs: RUNS,
        warmups: WARMUPS,
        cpuRuns: TUI_CPU_RUNS,
        keys: TUI_KEYS,
      });
      rows.push(...tui.rows);
      Object.assign(details, tui.details);
    } catch (error) {
      // A TUI run that breaks is a failed target, not a reason to lose the other figures.
      const message = error instanceof Error ? error.message : String(error);
      console.error(`bench: the TUI measurements failed: ${message}`);
      rows.push({ name: "TUI measurements", agent: "error", baseline: "—", ratio: undefined, target: "run", pass: false, data: { error: message } });
    }

    // 7. The TUI with ten background agents streaming at once.
    try {
      rows.push(...(await benchBackgroundAgents({ agent: AGENT, cwd: ws.cwd, root: ws.root, env: cleanEnv, cpuRuns: TUI_CPU_RUNS, keys: TUI_KEYS })));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`bench: the background-agents measurements failed: ${message}`);
      rows.push({ name: "TUI with background agents", agent: "error", baseline: "—", ratio: undefined, target: "run", pass: false, data: { error: message } });
    }

    const timings = new Map([...startup, ...twoTurn, ...mcpRuns, ...long]);
    details["timings"] = Object.fromEntries(timings);
    console.log(formatTable(rows));
    console.log("\nPer command (wall time = spawn → 'exit'; medians of: last output → 'exit', 'exit' → stdio 'close'):");
    for (const [label, stats] of timings) console.log(`  ${label.padEnd(46)} ${describe(stats)}`);
    console.log(`\nHeadless run loaded ${modules.distLoaded.length} dist file(s) (${modules.esmCount} ES modules, ${modules.cjsCount} CommonJS):`);
    for (const d of modules.distLoaded) console.log(`  dist/${d.file} (${d.kb.toFixed(0)} KB)${d.ui.length > 0 ? `  ← ${d.ui.join(", ")}` : ""}`);
    if (modules.uiChunksNotLoaded.length > 0) console.log(`  not loaded, holding ink/react: ${modules.uiChunksNotLoaded.map((f) => `dist/${f}`).join(", ")}`);
    if (modules.uiOutsideDist.length > 0) console.log(`  ink/react loaded from outside dist/: ${modules.uiOutsideDist.join(", ")}`);
    if (modules.uiLoaded === "unknown") console.log("  (could not tell: the module tracker saw no dist/ file)");
    if (!modules.detectable) console.log('  * no file in dist/ contains ink/react at all (yet), so this "no" could not have been "yes".');
  } finally {
    await server.close();
    ws.cleanup();
  }

  const summary = summaryLine(rows);
  const passed = rows.every((r) => r.pass !== false);
  writeResults(RESULTS, {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpu: os.cpus()[0]?.model ?? null,
    runs: RUNS,
    warmups: WARMUPS,
    rssRuns: RSS_RUNS,
    passed,
    summary,
    rows: rows.map((r) => ({ name: r.name, agent: r.agent, baseline: r.baseline, ratio: r.ratio ?? null, target: r.target, pass: r.pass ?? null, ...r.data })),
    ...details,
  });
  console.log("");
  if (passed) console.log(summary);
  else console.log(`\n!!!!!!!! ${summary}\n!!!!!!!! (measurement only: exiting 0)`);
  console.log(`results written to ${RESULTS}`);
}

main().catch((error: unknown) => {
  console.error(`bench: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});

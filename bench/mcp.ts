/**
 * What three configured stdio MCP servers that a run never calls cost a two-turn `-p` run, against none,
 * interleaved. Two rows: the usual case, a home where the servers ran before (their tool lists are cached,
 * so the first request does not wait for them), and the first run ever (no cache: the first request waits
 * for the servers, up to its bound). The cache is made once by a priming run and copied into each fresh home.
 *
 * Standalone: `node scripts/build.mjs && npx tsx bench/mcp.ts` (BENCH_RUNS, BENCH_WARMUPS).
 */
import { cpSync, existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { median, NARROW_TARGET_RUNS, runOnce, stdoutHas, timeInterleaved, type BenchCommand, type BenchRunOptions, type Stats } from "./measure.js";
import { hasScript, PtyRun } from "./pty.js";
import { ms, ratioRow, type Row } from "./report.js";
import { createWorkspace, FINAL_TEXT, startBenchServer, TOOL_PROMPT, standaloneRun } from "./scenario.js";

export type McpBenchOptions = BenchRunOptions;

const TARGET_RATIO = 1.05;
const SERVER = fileURLToPath(new URL("./mcp-server.mjs", import.meta.url));

export async function benchMcp(options: McpBenchOptions): Promise<{ rows: Row[]; timings: Map<string, Stats> }> {
  const check = stdoutHas(FINAL_TEXT);
  const config = JSON.stringify({
    mcpServers: Object.fromEntries(["one", "two", "three"].map((name) => [name, { type: "local", command: process.execPath, args: [SERVER], tools: ["*"] }])),
  });
  const homeWithServers = (cacheFrom?: string): string => {
    const home = options.freshHome();
    writeFileSync(path.join(home, "mcp-config.json"), config);
    if (cacheFrom) cpSync(path.join(cacheFrom, "mcp-cache"), path.join(home, "mcp-cache"), { recursive: true });
    return home;
  };
  const command = (label: string, home: () => string): BenchCommand => ({
    label,
    args: [options.agent, "-p", TOOL_PROMPT],
    cwd: options.cwd,
    env: () => options.env({ ...options.providerEnv, AGENT_HOME: home() }),
    check,
  });
  // The priming run is a first run: it waits for the servers, which then write their tool lists.
  const primed = homeWithServers();
  const priming = await runOnce(command("priming", () => primed));
  if (!existsSync(path.join(primed, "mcp-cache"))) throw new Error(`bench: the priming run left no MCP tool cache (exit ${priming.code})`);

  const none = command("agent -p (2 turns, no MCP servers)", () => options.freshHome());
  const cached = command("agent -p (2 turns, 3 MCP servers, cached tools)", () => homeWithServers(primed));
  const firstRun = command("agent -p (2 turns, 3 MCP servers, first run)", () => homeWithServers());
  // The first runs go after the others: their servers, ended at exit, must not share the CPU with the runs compared.
  const timings = new Map([
    ...(await timeInterleaved([cached, none], options.warmups, Math.max(options.runs, NARROW_TARGET_RUNS))),
    ...(await timeInterleaved([firstRun], options.warmups, options.runs)),
  ]);
  const get = (label: string): Stats => {
    const stats = timings.get(label);
    if (!stats) throw new Error(`bench: no result for ${label}`);
    return stats;
  };
  const rows = [
    ratioRow("2-turn -p: 3 unused MCP servers (tools cached) / none", get(cached.label), get(none.label), TARGET_RATIO, 2),
    ratioRow("2-turn -p: 3 unused MCP servers, first run ever / none", get(firstRun.label), get(none.label), undefined),
  ];
  if (hasScript()) rows.push(await tuiFirstFrame(options, () => homeWithServers(primed)));
  return { rows, timings };
}

/** The TUI's first frame (spawn → the idle prompt in a pty) with the three servers configured (cached), against none; interleaved. */
async function tuiFirstFrame(options: McpBenchOptions, homeWithServers: () => string): Promise<Row> {
  const frame = async (home: string): Promise<number> => {
    const pty = new PtyRun([process.execPath, options.agent], {
      cwd: options.cwd,
      env: options.env({ ...options.providerEnv, HOME: home, AGENT_HOME: home, TERM: "xterm-256color", LANG: "C.UTF-8" }),
      cols: 100,
      rows: 30,
    });
    const shown = await pty.waitForText("Ask anything");
    await pty.stop(await pty.pid());
    return shown - pty.startedAt;
  };
  const withServers: number[] = [];
  const without: number[] = [];
  for (let round = 0; round < options.warmups + Math.max(options.runs, NARROW_TARGET_RUNS); round++) {
    // Each round starts with the other one (AB, BA, …), as timeInterleaved does: where a run sits in the pair
    // moved its figure by more than the servers did (docs/benchmarks.md), and it was always the same side.
    const serversFirst = round % 2 === 0;
    const first = await frame(serversFirst ? homeWithServers() : options.freshHome());
    const second = await frame(serversFirst ? options.freshHome() : homeWithServers());
    if (round < options.warmups) continue;
    withServers.push(serversFirst ? first : second);
    without.push(serversFirst ? second : first);
  }
  const ratio = median(withServers) / median(without);
  return {
    name: "TUI first frame: 3 MCP servers (tools cached) / none",
    agent: ms(median(withServers)),
    baseline: ms(median(without)),
    ratio,
    target: `≤ ${TARGET_RATIO.toFixed(2)}×`,
    pass: ratio <= TARGET_RATIO,
    data: { withServersMs: withServers, withoutMs: without, ratio, targetRatio: TARGET_RATIO },
  };
}

// Standalone run.
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const ws = createWorkspace();
  const server = await startBenchServer(ws.file);
  try {
    const runs = Number(process.env.BENCH_RUNS ?? 15);
    const warmups = Number(process.env.BENCH_WARMUPS ?? 2);
    const result = await benchMcp({
      ...standaloneRun(ws, server),
      runs,
      warmups,
    });
    for (const line of result.rows) console.log(`${line.name}: ${line.agent} vs ${line.baseline} → ${line.ratio?.toFixed(3)}×`);
    for (const [label, stats] of result.timings) console.log(`  ${label}: median ${ms(stats.median)}, min ${ms(stats.min)}, max ${ms(stats.max)}`);
  } finally {
    await server.close();
    ws.cleanup();
  }
}

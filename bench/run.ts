/**
 * `npm run bench`: issue 24's table and the feature rows, each a figure against a baseline measured in the same
 * run (processes interleaved, medians over BENCH_RUNS runs after BENCH_WARMUPS warm-ups, every run's output
 * checked). Results: a table on stdout and bench/results.json.
 *
 * Every row with a target is a check: when any target is missed (or could not be checked, or its section
 * failed to run), the bench names each such row on stderr and exits 1. The bench is not part of CI (timing
 * belongs here, not in tests); run it on an idle machine, or read the CPU rows when it is not.
 *
 * Sections, in order (BENCH_ONLY=headless,tui runs a subset):
 *   headless    issue 24's headless rows: `agent --version` vs `node -e 0`; the two-turn `-p` run, its launch →
 *               first request and its peak RSS vs the bare `openai` script; the 2,000-token stream (wall and
 *               CPU) vs the script; ink/react on the headless path; the first shell permission decision.
 *   features    MCP, skills, other wires, hooks, subagents, the todo store, memory, /context, rewind, the SDK.
 *   install     the packed package's installed size.
 *   tui         the interactive TUI in a pty (bench/tui.ts).
 *   tui-agents  the TUI with ten background agents (bench/tui-agents.ts).
 *
 * Env: BENCH_ONLY, BENCH_RUNS (default 15), BENCH_WARMUPS (default 2), BENCH_RSS_RUNS (default 5),
 * BENCH_TUI_CPU_RUNS (default 5), BENCH_TUI_KEYS (default 30).
 */
import { existsSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { benchHeadless } from "./headless.js";
import { measureInstallSize } from "./install-size.js";
import { type Stats } from "./measure.js";
import { formatTable, mb, missedLines, summaryLine, writeResults, type Row } from "./report.js";
import { benchHooks } from "./hooks.js";
import { benchShellDecision } from "./shell-decision.js";
import { benchMcp } from "./mcp.js";
import { benchSkills } from "./skills.js";
import { benchWires } from "./wires.js";
import { benchSubagent } from "./subagents.js";
import { benchTodoStore } from "./todo-store.js";
import { benchMemory } from "./memory.js";
import { benchContext } from "./context.js";
import { benchRewind } from "./rewind.js";
import { benchSdkServer } from "./sdk-server.js";
import { benchTui } from "./tui.js";
import { benchBackgroundAgents } from "./tui-agents.js";
import { createWorkspace, startBenchServer, type Workspace } from "./scenario.js";
import type { ScriptedServer } from "../test/support/scripted-server.js";

const repo = (relative: string) => fileURLToPath(new URL(`../${relative}`, import.meta.url));
const AGENT = repo("bin/agent.js");
const RESULTS = repo("bench/results.json");
const INSTALL_TARGET_MB = 20;

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

/** What every section is given. */
export interface SectionContext {
  ws: Workspace;
  server: ScriptedServer;
  providerEnv: NodeJS.ProcessEnv;
}

/** What a section gives back: its rows, and extra figures for results.json and the per-command list. */
interface SectionResult {
  rows: Row[];
  details?: Record<string, unknown>;
  timings?: Map<string, Stats>;
  notes?: string[];
}

interface Section {
  name: string;
  run(context: SectionContext): Promise<SectionResult>;
}

const common = (context: SectionContext) => ({
  agent: AGENT,
  cwd: context.ws.cwd,
  freshHome: () => context.ws.freshHome(),
  env: cleanEnv,
  providerEnv: context.providerEnv,
  runs: RUNS,
  warmups: WARMUPS,
});

const SECTIONS: Section[] = [
  {
    name: "headless",
    run: async (context) => {
      const headless = await benchHeadless({
        ...common(context),
        baseline: repo("bench/baseline-openai.mjs"),
        dist: repo("dist"),
        server: context.server,
        rssRuns: RSS_RUNS,
      });
      const shell = await benchShellDecision(common(context));
      return { ...headless, rows: [...headless.rows, ...shell] };
    },
  },
  {
    name: "features",
    run: async (context) => {
      const options = common(context);
      const rows: Row[] = [];
      let timings: Map<string, Stats> | undefined;
      // Each bench on its own: one that breaks is a missed target, and the others still give their figures.
      const parts: [string, () => Promise<Row[]>][] = [
        // MCP: the same run with three configured stdio servers it never calls, against none (bench/mcp.ts).
        [
          "MCP",
          async () => {
            const mcp = await benchMcp(options);
            timings = mcp.timings;
            return mcp.rows;
          },
        ],
        // Skills: 200 on disk against none, start-up to the first request (bench/skills.ts).
        ["skills", () => benchSkills({ ...options, server: context.server })],
        // The same answer over the Responses API and Anthropic Messages, against Chat Completions (bench/wires.ts).
        ["wires", async () => (await benchWires(options)).rows],
        // A no-op hook's cost per tool call; a sync subagent's overhead against the same read by the main agent.
        ["hooks", async () => [await benchHooks(options)]],
        ["subagents", async () => [await benchSubagent(options)]],
        // The todo store's sql.js stays unloaded until the sql tool is first called.
        ["todo store", () => benchTodoStore(options)],
        // Memory: the board of 1,000 memories costs a -p run ≤ 5 ms of CPU; a run with memory off loads none of it.
        ["memory", () => benchMemory({ ...options, server: context.server })],
        // /context on a 10,002-event session, in process (no model call); rewind's snapshot and list (issue 21).
        ["/context", async () => [await benchContext(RUNS)]],
        ["rewind", () => benchRewind(RUNS)],
        // The Copilot SDK driving agent: its start-up, and a streamed answer through it against -p.
        ["SDK server", () => benchSdkServer({ ...options, driver: repo("bench/sdk-driver.mjs"), baseUrl: context.server.baseUrl })],
      ];
      for (const [name, part] of parts) {
        try {
          rows.push(...(await part()));
        } catch (error) {
          rows.push(failedRow(name, error));
        }
      }
      return { rows, ...(timings ? { timings } : {}) };
    },
  },
  {
    name: "install",
    run: async () => {
      // npm pack, then npm install of the tarball into an empty directory.
      const size = measureInstallSize(repo(""));
      const installed = size.diskMb ?? size.bytesMb;
      const row: Row = {
        name: `installed size (npm pack → npm install; ${size.diskMb === undefined ? "file sizes" : "du"})`,
        agent: mb(installed),
        baseline: "—",
        ratio: undefined,
        target: `≤ ${INSTALL_TARGET_MB} MB`,
        pass: installed <= INSTALL_TARGET_MB,
        data: { ...size, targetMb: INSTALL_TARGET_MB },
      };
      return { rows: [row] };
    },
  },
  {
    name: "tui",
    run: async (context) =>
      benchTui({
        agent: AGENT,
        cwd: context.ws.cwd,
        root: context.ws.root,
        env: cleanEnv,
        runs: RUNS,
        warmups: WARMUPS,
        cpuRuns: TUI_CPU_RUNS,
        keys: TUI_KEYS,
      }),
  },
  {
    name: "tui-agents",
    run: async (context) => ({
      rows: await benchBackgroundAgents({ agent: AGENT, cwd: context.ws.cwd, root: context.ws.root, env: cleanEnv, cpuRuns: TUI_CPU_RUNS, keys: TUI_KEYS }),
    }),
  },
];

/** The row of a bench that broke: a missed target, its error on stderr. */
function failedRow(name: string, error: unknown): Row {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  console.error(`bench: ${name} failed: ${message}`);
  return { name: `${name}: failed to run`, agent: "error", baseline: "—", ratio: undefined, target: "runs", pass: false, data: { error: message } };
}

/** The sections BENCH_ONLY names (all when unset); an unknown name is an error, not an empty run. */
function selectedSections(): Section[] {
  const only = process.env["BENCH_ONLY"]?.trim();
  if (!only) return SECTIONS;
  const names = only.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !SECTIONS.some((section) => section.name === name));
  if (unknown.length > 0) throw new Error(`BENCH_ONLY names no section ${unknown.join(", ")}; the sections are ${SECTIONS.map((s) => s.name).join(", ")}`);
  return SECTIONS.filter((section) => names.includes(section.name));
}

function describe(stats: Stats): string {
  const tail = Number.isFinite(stats.tailMedian) ? `${stats.tailMedian.toFixed(1)} ms` : "n/a";
  const cpu = stats.cpuMedian === undefined ? "" : `; CPU ${stats.cpuMedian.toFixed(1)} ms`;
  const first = stats.firstRequestMedian === undefined ? "" : `; first request ${stats.firstRequestMedian.toFixed(1)} ms`;
  return `median ${stats.median.toFixed(1)} ms, min ${stats.min.toFixed(1)}, max ${stats.max.toFixed(1)}${cpu}${first}; last output → exit ${tail}; drained after exit ${stats.drainMedian.toFixed(1)} ms`;
}

async function main(): Promise<void> {
  if (!existsSync(repo("dist/cli.js"))) throw new Error("dist/cli.js is missing: run `npm run build` first (npm run bench does).");
  const sections = selectedSections();
  const ws = createWorkspace();
  const server = await startBenchServer(ws.file);
  const rows: Row[] = [];
  const details: Record<string, unknown> = {};
  const timings = new Map<string, Stats>();
  const notes: string[] = [];
  const load = os.loadavg().map((value) => value.toFixed(1));
  try {
    const context: SectionContext = { ws, server, providerEnv: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "test", AGENT_MODEL: "bench-model" } };
    console.log(
      `agent bench — node ${process.version}, ${os.cpus()[0]?.model ?? "cpu?"} ×${os.cpus().length}, load average ${load.join(" ")}; ` +
        `${RUNS} runs after ${WARMUPS} warm-ups (BENCH_RUNS, BENCH_WARMUPS); sections: ${sections.map((s) => s.name).join(", ")} (BENCH_ONLY)\n`,
    );
    for (const section of sections) {
      try {
        const result = await section.run(context);
        rows.push(...result.rows);
        Object.assign(details, result.details);
        for (const [label, stats] of result.timings ?? []) timings.set(label, stats);
        notes.push(...(result.notes ?? []));
      } catch (error) {
        // A section that breaks is a missed target, not a reason to lose the other sections' figures.
        rows.push(failedRow(`${section.name} section`, error));
      }
    }
  } finally {
    await server.close();
    ws.cleanup();
  }

  details["timings"] = Object.fromEntries(timings);
  console.log(formatTable(rows));
  if (timings.size > 0) {
    console.log("\nPer command (wall time = spawn → 'exit'; medians of: last output → 'exit', 'exit' → stdio 'close'):");
    for (const [label, stats] of timings) console.log(`  ${label.padEnd(46)} ${describe(stats)}`);
  }
  for (const note of notes) console.log(note);

  const summary = summaryLine(rows);
  const misses = missedLines(rows);
  const loadAtEnd = os.loadavg().map((value) => value.toFixed(1));
  writeResults(RESULTS, {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpu: os.cpus()[0]?.model ?? null,
    loadAverage: { start: load.map(Number), end: loadAtEnd.map(Number) },
    sections: sections.map((s) => s.name),
    runs: RUNS,
    warmups: WARMUPS,
    rssRuns: RSS_RUNS,
    passed: misses.length === 0,
    summary,
    rows: rows.map((r) => ({ name: r.name, agent: r.agent, baseline: r.baseline, ratio: r.ratio ?? null, target: r.target, pass: r.pass ?? null, ...r.data })),
    ...details,
  });
  console.log(`\nresults written to ${RESULTS}`);
  if (misses.length === 0) {
    console.log(`${summary} (load average ${loadAtEnd.join(" ")} at the end)`);
    return;
  }
  const rule = "!".repeat(78);
  console.error(`\n${rule}\n${summary} (load average ${load.join(" ")} at the start, ${loadAtEnd.join(" ")} at the end):\n${misses.join("\n")}\n${rule}`);
  process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(`bench: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});

/**
 * Where the first shell permission decision in a process goes (docs/benchmarks.md):
 *   1. tree-sitter's phases in fresh processes (BENCH_PROFILE_RUNS each, default 5, medians): loading its
 *      runtime, compiling the runtime's WebAssembly, loading the bash grammar, the first parse, and what
 *      V8 compiles on background threads after it (TurboFan on the grammar's lexer), which the process waits
 *      for before it exits. CPU of the whole process; per thread from /proc on Linux. Twice: with V8's default
 *      tiers, and at the baseline tier as the agent compiles it (src/permissions/shell/baseline-tier.ts).
 *   2. the small parser's decision (analysis included) in this process: the first call and later ones.
 *   3. `-p` runs through the bash tool against a bare `ls`, for each agent given (default: this checkout's),
 *      so a build from before the change can be compared in the same run.
 *
 *   npm run build && npx tsx bench/profile-shell-decision.ts [path/to/bin/agent.js …]
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { analyzeShellCommand } from "../src/permissions/shell/analyze.js";
import { AFTER, DURING } from "../src/permissions/shell/baseline-tier.js";
import { median } from "./measure.js";
import { ms } from "./report.js";
import { createWorkspace, startBenchServer } from "./scenario.js";
import { BARE_COMMAND, FALLBACK_COMMAND, shellRun, SIMPLE_COMMANDS, timeWithCpu } from "./shell-decision.js";

const RUNS = Math.max(1, Number(process.env.BENCH_PROFILE_RUNS ?? 5) || 5);
const AGENTS = process.argv.length > 2 ? process.argv.slice(2) : [fileURLToPath(new URL("../bin/agent.js", import.meta.url))];
const VENDORED = fileURLToPath(new URL("../dist/tree-sitter/", import.meta.url));
const PACKAGE = `${createRequire(import.meta.url)
  .resolve("@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm")
  .replace(/tree-sitter-bash\.wasm$/, "")}`;
const DIR = existsSync(`${VENDORED}tree-sitter.cjs`) ? VENDORED : PACKAGE;

/** Run in a fresh node: times each phase, then at exit the CPU spent after the parse (background compiles). */
const PHASES = `
const fs = require("node:fs");
const v8 = require("node:v8");
const [dir, command, during, after] = process.argv.slice(1);
const ticks = () => { try { return fs.readdirSync("/proc/self/task").map((task) => { const stat = fs.readFileSync("/proc/self/task/" + task + "/stat", "utf8"); const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); return { main: task === String(process.pid), ms: (Number(fields[11]) + Number(fields[12])) * 10 }; }); } catch { return []; } };
const cpu = () => { const used = process.cpuUsage(); return (used.user + used.system) / 1000; };
const phases = {};
let last = cpu();
const lap = (name) => { const now = cpu(); phases[name] = now - last; last = now; };
(async () => {
  const runtime = require(dir + (fs.existsSync(dir + "tree-sitter.cjs") ? "tree-sitter.cjs" : "tree-sitter.js"));
  lap("require the runtime (JS)");
  if (during) v8.setFlagsFromString(during);
  await runtime.Parser.init();
  lap("Parser.init (runtime wasm)");
  const bash = await runtime.Language.load(dir + "tree-sitter-bash.wasm");
  const parser = new runtime.Parser();
  if (after) v8.setFlagsFromString(after);
  parser.setLanguage(bash);
  lap("Language.load (bash grammar)");
  parser.parse(command).delete();
  lap("first parse");
  process.on("exit", () => {
    lap("after the parse, until exit");
    const threads = ticks();
    const background = threads.filter((thread) => !thread.main).reduce((sum, thread) => sum + thread.ms, 0);
    process.stdout.write(JSON.stringify({ phases, backgroundThreadsMs: threads.length > 0 ? background : null }));
  });
})();
`;

function treeSitterPhases(command: string, baseline: boolean): void {
  const runs = Array.from({ length: RUNS }, () => {
    const started = performance.now();
    const child = spawnSync(process.execPath, ["-e", PHASES, DIR, command, ...(baseline ? [DURING, AFTER] : [])], { encoding: "utf8" });
    if (child.status !== 0) throw new Error(`phase probe failed: ${child.stderr}`);
    return { ...(JSON.parse(child.stdout) as { phases: Record<string, number>; backgroundThreadsMs: number | null }), wallMs: performance.now() - started };
  });
  console.log(`\`${command}\` (tree-sitter from ${DIR}, ${baseline ? "baseline tier" : "V8's default tiers"}; CPU ms, medians of ${RUNS}):`);
  for (const phase of Object.keys(runs[0]?.phases ?? {})) console.log(`  ${ms(median(runs.map((run) => run.phases[phase] ?? 0))).padStart(10)}  ${phase}`);
  const background = runs.map((run) => run.backgroundThreadsMs).filter((value): value is number => value !== null);
  if (background.length > 0) console.log(`  ${ms(median(background)).padStart(10)}  of all that, on threads other than the main one`);
  console.log(`  ${ms(median(runs.map((run) => run.wallMs))).padStart(10)}  wall, start to exit (whole process)`);
}

async function simpleDecisions(): Promise<void> {
  console.log("\nThe small parser's decision (analysis included), in this process, CPU:");
  for (const command of [BARE_COMMAND, ...SIMPLE_COMMANDS]) {
    const started = process.cpuUsage();
    await analyzeShellCommand(command);
    const first = process.cpuUsage(started);
    const later: number[] = [];
    for (let index = 0; index < 200; index++) {
      const again = process.cpuUsage();
      await analyzeShellCommand(command);
      const used = process.cpuUsage(again);
      later.push((used.user + used.system) / 1000);
    }
    console.log(`  ${ms((first.user + first.system) / 1000).padStart(10)} first, ${ms(median(later))} later  \`${command}\``);
  }
}

async function agentRuns(): Promise<void> {
  const ws = createWorkspace();
  const server = await startBenchServer(ws.file);
  try {
    const options = {
      agent: AGENTS[0] as string,
      cwd: ws.cwd,
      freshHome: () => ws.freshHome(),
      env: (extra: NodeJS.ProcessEnv) => ({ ...process.env, NODE_OPTIONS: "", ...extra }),
      providerEnv: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "test", AGENT_MODEL: "bench-model" },
      runs: RUNS,
      warmups: 1,
    };
    const commands = [BARE_COMMAND, ...SIMPLE_COMMANDS, FALLBACK_COMMAND];
    const runs = AGENTS.flatMap((agent, index) => commands.map((command) => ({ ...shellRun(options, command, agent), label: `${index}: ${command}` })));
    const timings = await timeWithCpu(runs, options.warmups, options.runs);
    for (const [index, agent] of AGENTS.entries()) {
      console.log(`\n-p through the bash tool, ${agent} (medians of ${RUNS}; CPU of the whole process):`);
      const base = timings.get(`${index}: ${BARE_COMMAND}`);
      for (const command of commands) {
        const timing = timings.get(`${index}: ${command}`);
        if (!timing || !base) continue;
        const extra = timing.cpuMedian - base.cpuMedian;
        console.log(
          `  ${ms(timing.cpuMedian).padStart(10)} CPU (${extra < 0 ? "−" : "+"}${ms(Math.abs(extra))}), wall ${ms(timing.wall.median)}  \`${command}\``,
        );
      }
    }
  } finally {
    await server.close();
    ws.cleanup();
  }
}

async function main(): Promise<void> {
  for (const baseline of [false, true]) for (const command of [BARE_COMMAND, "ls -l", "cat README.md", FALLBACK_COMMAND]) treeSitterPhases(command, baseline);
  await simpleDecisions();
  await agentRuns();
}

main().catch((error: unknown) => {
  console.error(`profile-shell-decision: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});

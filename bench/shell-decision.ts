/**
 * The first shell permission decision in a fresh process. `-p` runs whose one tool call runs a simple command
 * line (`ls && echo hi`, `cat README.md`, `echo hi`) against the same run with a bare `ls`, interleaved: the
 * difference is what deciding and running it costs beyond `ls`, in CPU time of the whole process (every
 * thread, so V8's background compilation counts; bench/cpu-preload.mjs) and in wall time. A command beyond
 * the small parser, for which tree-sitter's WebAssembly grammar loads (compiled at V8's baseline tier), has a
 * target of its own. Under the
 * module tracker, a simple command must not load tree-sitter, and that command must (the control).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { runOnce, stdoutHas, timeInterleaved, validate, type BenchCommand, type BenchRunOptions, type Stats } from "./measure.js";
import { ms, type Row } from "./report.js";
import { FINAL_TEXT, SHELL_MARKER } from "./scenario.js";

export type ShellDecisionBenchOptions = BenchRunOptions;

const TARGET_MS = 50;
/** Loading tree-sitter and parsing at the baseline tier: ~35 ms measured, no TurboFan compile after it. */
const FALLBACK_TARGET_MS = 100;
const TRACKER = pathToFileURL(fileURLToPath(new URL("./module-tracker.mjs", import.meta.url))).href;

export const BARE_COMMAND = "ls";
export const SIMPLE_COMMANDS = ["ls && echo hi", "cat README.md", "echo hi"];
/** Read-only, so approved without a person, and beyond the small parser (a substitution). */
export const FALLBACK_COMMAND = 'echo "$(cat README.md)" | wc -l';

export interface CpuTiming {
  wall: Stats;
  /** Median CPU time of the whole process, ms. */
  cpuMedian: number;
  cpuMin: number;
}

/** Like timeInterleaved, with each run's CPU time as well. */
export async function timeWithCpu(commands: readonly BenchCommand[], warmups: number, runs: number): Promise<Map<string, CpuTiming>> {
  const stats = await timeInterleaved(commands, warmups, runs, { cpu: true });
  return new Map([...stats].map(([label, wall]) => [label, { wall, cpuMedian: wall.cpuMedian ?? Number.NaN, cpuMin: wall.cpuMin ?? Number.NaN }]));
}

/** The bench's `-p` run whose one tool call runs `command` through the bash tool. */
export function shellRun(options: ShellDecisionBenchOptions, command: string, agent = options.agent): BenchCommand {
  return {
    label: `agent -p running \`${command}\``,
    args: [agent, "-p", `${SHELL_MARKER}: ${command}`],
    cwd: options.cwd,
    env: () => options.env({ ...options.providerEnv, AGENT_HOME: options.freshHome() }),
    check: stdoutHas(FINAL_TEXT),
  };
}

/** Whether a run of `command` loaded tree-sitter's runtime (the module tracker's CommonJS list at exit). */
async function loadsTreeSitter(options: ShellDecisionBenchOptions, command: string): Promise<boolean> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "bench-shell-modules-"));
  try {
    const log = path.join(scratch, "modules.log");
    const run = shellRun(options, command);
    validate(run, await runOnce(run, { extraArgs: ["--import", TRACKER], extraEnv: { BENCH_MODULE_LOG: log } }));
    return readFileSync(log, "utf8")
      .split("\n")
      .some((line) => /tree-sitter\.c?js$/.test(line));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function row(command: string, timing: CpuTiming, base: CpuTiming, targetMs: number, treeSitter = false): Row {
  const extra = timing.cpuMedian - base.cpuMedian;
  return {
    name: `first shell decision: -p running \`${command}\` / running \`${BARE_COMMAND}\` (CPU)${treeSitter ? ", tree-sitter" : ""}`,
    agent: `${ms(timing.cpuMedian)} (${extra < 0 ? "−" : "+"}${ms(Math.abs(extra))}; wall ${ms(timing.wall.median)})`,
    baseline: `${ms(base.cpuMedian)} (wall ${ms(base.wall.median)})`,
    ratio: timing.cpuMedian / base.cpuMedian,
    target: `≤ +${targetMs} ms`,
    pass: extra <= targetMs,
    data: { command, extraCpuMs: extra, extraWallMs: timing.wall.median - base.wall.median, timing, baseline: base, targetMs },
  };
}

export async function benchShellDecision(options: ShellDecisionBenchOptions): Promise<Row[]> {
  const readme = path.join(options.cwd, "README.md");
  if (!existsSync(readme)) writeFileSync(readme, `# bench\n\n${"The bench works.\n".repeat(20)}`);
  const bare = shellRun(options, BARE_COMMAND);
  const simple = SIMPLE_COMMANDS.map((command) => shellRun(options, command));
  const fallback = shellRun(options, FALLBACK_COMMAND);
  const timings = await timeWithCpu([bare, ...simple, fallback], options.warmups, options.runs);
  const timing = (command: BenchCommand): CpuTiming => {
    const found = timings.get(command.label);
    if (!found) throw new Error(`bench: no result for ${command.label}`);
    return found;
  };
  const rows = SIMPLE_COMMANDS.map((command, index) => row(command, timing(simple[index] as BenchCommand), timing(bare), TARGET_MS));
  rows.push(row(FALLBACK_COMMAND, timing(fallback), timing(bare), FALLBACK_TARGET_MS, true));
  const simpleLoads = await loadsTreeSitter(options, SIMPLE_COMMANDS[1] as string);
  const controlLoads = await loadsTreeSitter(options, FALLBACK_COMMAND);
  rows.push({
    name: `-p running \`${SIMPLE_COMMANDS[1]}\` loads tree-sitter (control: \`${FALLBACK_COMMAND}\`)`,
    agent: simpleLoads ? "yes" : "no",
    baseline: controlLoads ? "yes" : "no",
    ratio: undefined,
    target: "no",
    // A control that did not load it means the tracker could not see it: no verdict.
    pass: controlLoads ? !simpleLoads : undefined,
    data: { simpleLoads, controlLoads },
  });
  return rows;
}

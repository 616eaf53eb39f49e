/**
 * Process timing and peak-RSS measurement for the bench.
 *
 * Wall time: from `spawn()` to the child's 'exit' event (the process is gone), measured in the bench
 * process with performance.now(). The 'close' event (all stdio drained) is recorded too, so the report can
 * say whether output was still being drained after the process had exited.
 *
 * Peak RSS: GNU time (`/usr/bin/time -f %M -o file`, max RSS in KB) when it works; otherwise a preload
 * (bench/rss-preload.mjs) that writes `process.resourceUsage().maxRSS` at exit; otherwise "n/a".
 *
 * CPU time (asked for with `cpu`): the child's user + system time of every thread, written at exit by a preload
 * (bench/cpu-preload.mjs), in microseconds. Launch → first request (asked for with `server`): from `spawn()` to
 * the scripted server's 'completion' event for the first model request, both clocks in this process.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export interface BenchCommand {
  label: string;
  /** Arguments to `node` (process.execPath). */
  args: string[];
  cwd: string;
  /** Environment for one run (called per run, so each run may get e.g. a fresh AGENT_HOME). */
  env: () => NodeJS.ProcessEnv;
  /** Returns an error message when a run's output is wrong. */
  check?: (result: RunResult) => string | undefined;
}

export interface RunResult {
  /** spawn → 'exit'. */
  wallMs: number;
  /** 'exit' → 'close' (stdio still being drained after the process ended). */
  drainMs: number;
  /** Last output (stdout or stderr) → 'exit': how long the process lingered after it had finished printing. */
  tailMs: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** User + system CPU time of the child, ms (only when asked for). */
  cpuMs?: number;
  /** spawn → the server received the first model request, ms (only when asked for). */
  firstRequestMs?: number;
}

/** What the bench's scripted server offers for timing the first request: its 'completion' event. */
export interface RequestSource {
  on(event: "completion", listener: () => void): unknown;
  off(event: "completion", listener: () => void): unknown;
}

export interface RunOptions {
  /** A program run instead of node, with node as its argument (e.g. GNU time). */
  wrapper?: string[];
  extraArgs?: string[];
  extraEnv?: NodeJS.ProcessEnv;
  /** Measure the child's CPU time (adds the CPU preload to node's arguments). */
  cpu?: boolean;
  /** Time spawn → the first model request this server receives. */
  server?: RequestSource;
}

export interface Stats {
  runs: number;
  median: number;
  min: number;
  max: number;
  /** Median of drainMs. */
  drainMedian: number;
  /** Median of tailMs. */
  tailMedian: number;
  /** Median and fastest CPU time, ms, when measured. */
  cpuMedian?: number;
  cpuMin?: number;
  /** Median and fastest spawn → first model request, ms, when measured. */
  firstRequestMedian?: number;
  firstRequestMin?: number;
}

const RUN_TIMEOUT_MS = 60_000;

const CPU_PRELOAD = pathToFileURL(fileURLToPath(new URL("./cpu-preload.mjs", import.meta.url))).href;
let cpuScratch: string | undefined;
let tempCounter = 0;

/** A file the CPU preload writes into, in one scratch folder per bench process (removed at exit). */
function cpuFile(): string {
  if (cpuScratch === undefined) {
    const dir = mkdtempSync(path.join(os.tmpdir(), "agent-bench-cpu-"));
    cpuScratch = dir;
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  }
  return path.join(cpuScratch, `${tempCounter++}.txt`);
}

/** Spawn `command` and time it (and, when asked, its CPU time and its first model request). */
export async function runOnce(command: BenchCommand, options: RunOptions = {}): Promise<RunResult> {
  const cpuOut = options.cpu ? cpuFile() : undefined;
  const nodeArgs = [...(cpuOut ? ["--import", CPU_PRELOAD] : []), ...(options.extraArgs ?? []), ...command.args];
  const [program, ...args] = options.wrapper ? [...options.wrapper, process.execPath, ...nodeArgs] : [process.execPath, ...nodeArgs];
  const env = { ...command.env(), ...options.extraEnv, ...(cpuOut ? { BENCH_CPU_FILE: cpuOut } : {}) };
  let started = 0;
  let firstRequestAt = Number.NaN;
  const onCompletion = () => {
    if (Number.isNaN(firstRequestAt)) firstRequestAt = performance.now();
  };
  options.server?.on("completion", onCompletion);
  try {
    const result = await new Promise<RunResult>((resolve, reject) => {
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      let exitAt = 0;
      let lastOutputAt = Number.NaN;
      let code: number | null = null;
      let signal: NodeJS.Signals | null = null;
      started = performance.now();
      const child = spawn(program as string, args, { cwd: command.cwd, env, stdio: ["ignore", "pipe", "pipe"] });
      const timer = setTimeout(() => child.kill("SIGKILL"), RUN_TIMEOUT_MS);
      child.stdout.on("data", (part: Buffer) => {
        if (exitAt === 0) lastOutputAt = performance.now();
        stdout.push(part);
      });
      child.stderr.on("data", (part: Buffer) => {
        if (exitAt === 0) lastOutputAt = performance.now();
        stderr.push(part);
      });
      child.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on("exit", (exitCode, exitSignal) => {
        exitAt = performance.now();
        code = exitCode;
        signal = exitSignal;
      });
      child.on("close", () => {
        clearTimeout(timer);
        const closedAt = performance.now();
        resolve({
          wallMs: exitAt - started,
          drainMs: closedAt - exitAt,
          tailMs: exitAt - lastOutputAt,
          code,
          signal,
          stdout: Buffer.concat(stdout).toString("utf8"),
          stderr: Buffer.concat(stderr).toString("utf8"),
        });
      });
    });
    if (options.server) result.firstRequestMs = firstRequestAt - started;
    if (cpuOut) {
      const micros = existsSync(cpuOut) ? Number.parseInt(readFileSync(cpuOut, "utf8"), 10) : Number.NaN;
      rmSync(cpuOut, { force: true });
      result.cpuMs = micros / 1000;
    }
    return result;
  } finally {
    options.server?.off("completion", onCompletion);
  }
}

/**
 * Rounds a row takes at least when its target is within 5% of its baseline (two near-identical runs of ~150 ms: MCP
 * servers with cached tools, the other wires). A median of 7 moved by a few stalled runs: the Responses row read
 * 1.09× with both sides' minimums 0.5 ms apart (docs/benchmarks.md, "Narrow targets, stop 31").
 */
export const NARROW_TARGET_RUNS = 21;

/** Throw with the run's output if it failed or its output is wrong. */
export function validate(command: BenchCommand, result: RunResult): void {
  const problem =
    result.code !== 0
      ? `exit code ${result.code ?? "none"}${result.signal ? ` (signal ${result.signal})` : ""}`
      : result.cpuMs !== undefined && !Number.isFinite(result.cpuMs)
        ? "no CPU time was written"
        : result.firstRequestMs !== undefined && !Number.isFinite(result.firstRequestMs)
          ? "the server received no model request"
          : command.check?.(result);
  if (problem === undefined) return;
  const excerpt = (text: string) => (text.length > 1500 ? `${text.slice(0, 700)}\n…\n${text.slice(-700)}` : text);
  throw new Error(`${command.label}: ${problem}\n--- stdout ---\n${excerpt(result.stdout)}\n--- stderr ---\n${excerpt(result.stderr)}`);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The nearest-rank percentile (p in 0–100); NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** A check that the run printed `expected` on stdout. */
export function stdoutHas(expected: string): BenchCommand["check"] {
  return (result) => (result.stdout.includes(expected) ? undefined : `stdout lacks "${expected}"`);
}

/** What the benches of one `-p` run against another are given by bench/run.ts. */
export interface BenchRunOptions {
  agent: string;
  cwd: string;
  /** A new empty AGENT_HOME for each run. */
  freshHome(): string;
  env(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  providerEnv: NodeJS.ProcessEnv;
  runs: number;
  warmups: number;
}

export function statsOf(results: readonly RunResult[]): Stats {
  const walls = results.map((r) => r.wallMs);
  const cpu = results.flatMap((r) => (r.cpuMs === undefined ? [] : [r.cpuMs]));
  const first = results.flatMap((r) => (r.firstRequestMs === undefined ? [] : [r.firstRequestMs]));
  return {
    runs: results.length,
    median: median(walls),
    min: Math.min(...walls),
    max: Math.max(...walls),
    drainMedian: median(results.map((r) => r.drainMs)),
    tailMedian: median(results.map((r) => r.tailMs).filter((t) => Number.isFinite(t))),
    ...(cpu.length > 0 ? { cpuMedian: median(cpu), cpuMin: Math.min(...cpu) } : {}),
    ...(first.length > 0 ? { firstRequestMedian: median(first), firstRequestMin: Math.min(...first) } : {}),
  };
}

/**
 * Time several commands, interleaved (A B C, B C A, …) so drift in machine load hits all of them alike.
 * `warmups` rounds are run and discarded first. Every run is validated. `options` asks every run for its CPU
 * time and/or its first model request.
 */
export async function timeInterleaved(
  commands: readonly BenchCommand[],
  warmups: number,
  runs: number,
  options: Pick<RunOptions, "cpu" | "server"> = {},
): Promise<Map<string, Stats>> {
  const results = new Map<string, RunResult[]>(commands.map((c) => [c.label, []]));
  for (let round = 0; round < warmups + runs; round++) {
    // Each round starts one command later (A B C, B C A, C A B, …): no command always follows the same one.
    const start = round % commands.length;
    for (const command of [...commands.slice(start), ...commands.slice(0, start)]) {
      const result = await runOnce(command, options);
      validate(command, result);
      if (round >= warmups) results.get(command.label)?.push(result);
    }
  }
  return new Map([...results].map(([label, list]) => [label, statsOf(list)]));
}

// ---------------------------------------------------------------- peak RSS

export type RssMethod = "gnu-time" | "preload" | "none";

const GNU_TIME = "/usr/bin/time";
const RSS_PRELOAD = pathToFileURL(fileURLToPath(new URL("./rss-preload.mjs", import.meta.url))).href;

function tempFile(tag: string): string {
  return path.join(os.tmpdir(), `agent-bench-${process.pid}-${tempCounter++}-${tag}.txt`);
}

/** Peak RSS in KB of one run of `command` by `method`, or undefined when it could not be read. */
async function peakRssOnce(command: BenchCommand, method: RssMethod): Promise<number | undefined> {
  if (method === "none") return undefined;
  const file = tempFile("rss");
  try {
    const result =
      method === "gnu-time"
        ? await runOnce(command, { wrapper: [GNU_TIME, "-f", "%M", "-o", file] })
        : await runOnce(command, { extraArgs: ["--import", RSS_PRELOAD], extraEnv: { BENCH_RSS_FILE: file } });
    validate(command, result);
    if (!existsSync(file)) return undefined;
    const lines = readFileSync(file, "utf8").trim().split("\n");
    const kb = Number.parseInt(lines[lines.length - 1] ?? "", 10);
    return Number.isFinite(kb) && kb > 0 ? kb : undefined;
  } finally {
    rmSync(file, { force: true });
  }
}

/** The first RSS method that yields a number for `node -e 0`. */
export async function detectRssMethod(cwd: string): Promise<RssMethod> {
  const probe: BenchCommand = { label: "rss-probe", args: ["-e", "0"], cwd, env: () => process.env };
  for (const method of ["gnu-time", "preload"] as const) {
    if (method === "gnu-time" && !existsSync(GNU_TIME)) continue;
    try {
      if ((await peakRssOnce(probe, method)) !== undefined) return method;
    } catch {
      // try the next method
    }
  }
  return "none";
}

/** Median peak RSS in MB over `runs` runs, or undefined ("n/a"). */
export async function peakRssMb(command: BenchCommand, method: RssMethod, runs: number): Promise<number | undefined> {
  const values: number[] = [];
  for (let i = 0; i < runs; i++) {
    const kb = await peakRssOnce(command, method);
    if (kb !== undefined) values.push(kb / 1024);
  }
  return values.length > 0 ? median(values) : undefined;
}

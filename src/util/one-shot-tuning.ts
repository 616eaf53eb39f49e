/**
 * V8 settings for a run that answers and exits (`agent -p`, no terminal), set before the program loads; the
 * TUI keeps V8's defaults, and the SDK server, which lives long but whose first second is a one-shot run's
 * (load, answer the handshake, open a session, read a stream), takes the first second's settings below but
 * keeps its young generation (tuneServerStart). Measured in docs/benchmarks.md.
 *
 * - The young generation stays at its first 1 MB semi-space: V8 would otherwise double it up to 8 MB while
 *   the program's modules load (their objects survive, which V8 reads as "grow"), and those pages stay
 *   resident to the end (about 3.5 MB of peak RSS in a two-turn run).
 * - TurboFan waits for the run's first second: what gets hot that early (resolving and linking the modules,
 *   building schemas, reading the first stream) mostly runs once, and optimising it cost a short run more CPU
 *   on the compiler's thread than it saved (a 2,000-token answer: ~70 ms) and ~5 MB of peak RSS (the
 *   compiler's code and zones). A run that lasts gets it from then on. Node's own flags win: a compiler
 *   chosen on the command line or in NODE_OPTIONS is left alone.
 * - A one-shot run (not the server) waits for Sparkplug, the baseline compiler, too: its code and the node binary's
 *   pages it runs from were ~0.5 MB of a two-turn run's peak RSS, for no CPU it saved.
 * - A one-shot run's scavenges stay on the main thread in its first second (no parallel scavenging, array buffers swept
 *   in the pause): a 1 MB young generation is collected in about a millisecond either way, and each of V8's worker
 *   threads a scavenge woke touched a stack and a malloc arena of its own, ~0.5 MB of a two-turn run's peak RSS.
 * - The server's old generation is not marked incrementally in its first second either: once its young generation
 *   has grown (to 8 MB while the engine loads), V8 starts marking the old one early to make room for it, and
 *   finishes with a mark-compact in the middle of the first answer (~15 ms on the main thread, ~17 ms of
 *   concurrent marking on V8's threads) that a start-up's heap (~15 MB live) does not need yet.
 */
import type { setFlagsFromString } from "node:v8";

export const OPTIMISER_DELAY_MS = 1000;

interface TuningDeps {
  setFlags: typeof setFlagsFromString;
  /** Node's own options: process.execArgv and NODE_OPTIONS. */
  nodeOptions: readonly string[];
  later(run: () => void, ms: number): { unref(): unknown };
  /** Runs `run` when the process exits, before what is registered later (the code caches' writers). */
  atExit(run: () => void): void;
}

const COMPILER_FLAGS = /^--(no-)?(turbofan|opt|jitless|always-turbofan|always-opt|sparkplug|always-sparkplug)(=|$)/;
const MARKING_FLAGS = /^--(no-)?incremental-marking(=|$)/;
const GC_THREAD_FLAGS = /^--(no-)?(parallel-scavenge|concurrent-array-buffer-sweeping|single-threaded-gc|single-threaded|predictable)(=|$)/;

/** Returns whether a flag starts off: the code caches are then named for it (noteCompilerSettings in code-cache.ts). */
export function tuneForOneShot(deps: TuningDeps): boolean {
  deps.setFlags("--semi-space-growth-factor=1");
  const gcThreads = given(deps, GC_THREAD_FLAGS) ? [] : ["parallel-scavenge", "concurrent-array-buffer-sweeping"];
  return offForFirstSecond(deps, [...compilersToDelay(deps, ["turbofan", "sparkplug"]), ...gcThreads]);
}

/**
 * The SDK server's first second: TurboFan's delay (delayCompilers) and no incremental marking (unless Node was given
 * a flag for it), each back on after that second and off again at exit, as the code caches written then must carry
 * the flags the next start has. Returns whether anything changed: the caches are then named for it.
 */
export function tuneServerStart(deps: TuningDeps): boolean {
  const marking = !deps.nodeOptions.some((option) => MARKING_FLAGS.test(option.replaceAll("_", "-")));
  if (marking) {
    deps.setFlags("--no-incremental-marking");
    deps.later(() => deps.setFlags("--incremental-marking"), OPTIMISER_DELAY_MS).unref();
    deps.atExit(() => deps.setFlags("--no-incremental-marking"));
  }
  return offForFirstSecond(deps, compilersToDelay(deps, ["turbofan"])) || marking;
}

/** Whether Node was given a flag `pattern` matches (on the command line or in NODE_OPTIONS). */
function given(deps: TuningDeps, pattern: RegExp): boolean {
  return deps.nodeOptions.some((option) => pattern.test(option.replaceAll("_", "-")));
}

/** The compilers to keep off for the first second: none when Node was given a compiler flag. */
function compilersToDelay(deps: TuningDeps, compilers: readonly ("turbofan" | "sparkplug")[]): readonly string[] {
  return given(deps, COMPILER_FLAGS) ? [] : compilers;
}

/** The boolean flags `names` off for the process's first second, and off again at exit. Returns whether there were any. */
function offForFirstSecond(deps: TuningDeps, names: readonly string[]): boolean {
  if (names.length === 0) return false;
  const set = (on: boolean): void => names.forEach((name) => deps.setFlags(`--${on ? "" : "no-"}${name}`));
  set(false);
  // Unref'd: a run that ends sooner is not held open for it.
  deps.later(() => set(true), OPTIMISER_DELAY_MS).unref();
  // V8 stamps a code cache with a hash of its flags and refuses one whose flags differ from its own: the caches
  // written at exit (src/util/code-cache.ts) must carry the flags the next run starts with, or a run that lasted
  // past the first second would have every next start refuse them, compile from source and write them again.
  deps.atExit(() => set(false));
  return true;
}

export function nodeOptionsOf(process: NodeJS.Process): string[] {
  return [...process.execArgv, ...(process.env["NODE_OPTIONS"]?.split(/\s+/).filter(Boolean) ?? [])];
}

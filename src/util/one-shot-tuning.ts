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

/** Returns whether TurboFan starts off: the code caches are then named for it (noteCompilerSettings in code-cache.ts). */
export function tuneForOneShot(deps: TuningDeps): boolean {
  deps.setFlags("--semi-space-growth-factor=1");
  return delayCompilers(deps, ["turbofan", "sparkplug"]);
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
  return delayCompilers(deps, ["turbofan"]) || marking;
}

/**
 * The compilers off for the process's first second (unless Node was given a compiler flag), and off again at exit.
 * Returns whether they are off.
 */
function delayCompilers(deps: TuningDeps, later: readonly ("turbofan" | "sparkplug")[]): boolean {
  if (deps.nodeOptions.some((option) => COMPILER_FLAGS.test(option.replaceAll("_", "-")))) return false;
  const compilers = (on: boolean): void => later.forEach((compiler) => deps.setFlags(`--${on ? "" : "no-"}${compiler}`));
  compilers(false);
  // Unref'd: a run that ends sooner is not held open for it.
  deps.later(() => compilers(true), OPTIMISER_DELAY_MS).unref();
  // V8 stamps a code cache with a hash of its flags and refuses one whose flags differ from its own: the caches
  // written at exit (src/util/code-cache.ts) must carry the flags the next run starts with, or a run that lasted
  // past the first second would have every next start refuse them, compile from source and write them again.
  deps.atExit(() => compilers(false));
  return true;
}

export function nodeOptionsOf(process: NodeJS.Process): string[] {
  return [...process.execArgv, ...(process.env["NODE_OPTIONS"]?.split(/\s+/).filter(Boolean) ?? [])];
}

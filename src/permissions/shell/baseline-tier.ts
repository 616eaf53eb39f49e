/**
 * Compiles tree-sitter's WebAssembly at V8's baseline tier (Liftoff) and keeps it there (docs/benchmarks.md).
 * With V8's defaults, the bash grammar's 160 KB lexer turns hot within a few characters of input and TurboFan
 * recompiles it on a background thread: 0.6–1.2 s of CPU that Node waits for before the process exits, for
 * parses that take milliseconds at the baseline tier.
 *
 * V8 has no per-module switch, so the flags are set for the length of the compile and put back right after:
 * - `--liftoff-only` stops both tier-ups (it implies `--no-wasm-tier-up --no-wasm-dynamic-tiering`);
 * - `--no-wasm-lazy-compilation` compiles every function now, inside the window. A function compiled lazily,
 *   on its first call after the window, would read the restored flags and tier up after all (measured).
 * Only what is compiled inside the window is affected: a module compiled later tiers up as usual (measured;
 * test/permissions/baseline-tier.test.ts). Implied flags are not undone by V8, so all four are put back.
 *
 * V8 cannot be asked for a flag's value. A flag differs from its default only when given at startup, in
 * Node's arguments or NODE_OPTIONS; when any that touches WebAssembly's tiers is, nothing is changed here.
 * Node calls changing V8 flags at run time unsupported in general; these four are read when WebAssembly code
 * is compiled, and Node runs V8 with `--no-freeze-flags-after-init`, so setting them later is allowed.
 */
import v8 from "node:v8";

/** The flags set for the compile, and the defaults they are put back to (bench/profile-shell-decision.ts uses both). */
export const DURING = "--liftoff-only --no-wasm-lazy-compilation";
export const AFTER = "--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering --wasm-lazy-compilation";

/** Startup options that change WebAssembly's tiers, directly or by implication (V8 accepts `-` or `_`). */
const TIER_OPTION = /^--(no-?)?(liftoff|wasm[-_]|single[-_]threaded|predictable|jitless|fuzzing)/;

/** Whether the process was started with an option that sets what the window would change. */
export function startupSetsTiers(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ""): boolean {
  return [...execArgv, ...nodeOptions.split(/\s+/)].some((option) => TIER_OPTION.test(option));
}

/** `compile()` with V8 compiling WebAssembly at the baseline tier only, the flags restored when it settles. */
export async function atBaselineTier<T>(compile: () => Promise<T>): Promise<T> {
  if (startupSetsTiers()) return compile();
  v8.setFlagsFromString(DURING);
  try {
    return await compile();
  } finally {
    v8.setFlagsFromString(AFTER);
  }
}

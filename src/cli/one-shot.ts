/**
 * A `-p` run's start. bin/agent.js requires it as the CommonJS script dist/chunks/one-shot.cjs (scripts/build.mjs),
 * so such a run never starts Node's ES module loader: its ten built-in modules were ~0.3 MB of the run's peak RSS
 * (docs/benchmarks.md). The program itself is the script dist/chunks/program.cjs, whose compiled
 * code V8 caches (Node 20 caches no ES module's). dist/cli.js (main.ts) runs the same function for a `-p` it is given.
 */
import { createRequire } from "node:module";
import { enableModuleCompileCache, holdReadBuffer, noteCompilerSettings, releaseReadBuffer } from "../util/code-cache.js";
import { nodeOptionsOf, tuneForOneShot } from "../util/one-shot-tuning.js";
import { cachedBundle, commanderBundle, vendorBundle } from "../util/vendor-bundle.js";

declare const AGENT_PROGRAM_ID: string;

/**
 * What one-shot-tuning.ts sets V8's flags with. node:v8 is required here, not imported: the TUI, whose entry (main.ts)
 * imports this module, does not load it.
 */
export function v8Tuning(): Parameters<typeof tuneForOneShot>[0] {
  const v8 = createRequire(import.meta.url)("node:v8") as typeof import("node:v8");
  return { setFlags: v8.setFlagsFromString, nodeOptions: nodeOptionsOf(process), later: setTimeout, atExit: (run) => process.once("exit", run) };
}

/**
 * A one-shot run keeps V8's young generation small and starts without TurboFan (one-shot-tuning.ts). The TUI, which
 * lives long, keeps V8's defaults; the SDK server has a first second of its own (tuneServerStart, main.ts).
 */
export function tuneThisRun(): void {
  if (tuneForOneShot(v8Tuning())) noteCompilerSettings("one-shot");
}

/** An ES module entry of dist/ the program's script leaves out: the TUI, or the subcommands (scripts/build.mjs). */
export type EsmEntry = "interactive" | "subcommands";

/**
 * How the program's script reaches what it leaves to the ES module build (a script cannot import()): set by whoever
 * loads the script, a `-p` run (runOneShot) or the SDK server, whose engine comes from it (main.ts).
 */
export function provideEsmEntries(importEntry: (entry: EsmEntry) => Promise<unknown>): void {
  (globalThis as Record<symbol, unknown>)[Symbol.for("agent.importEsmEntry")] = importEntry;
}

/**
 * Runs the command line of a `-p` run. `importEntry` imports what the script leaves to the ES module build, for a
 * command line that asks for it (`agent --name -p` in a terminal, `agent mcp list -p x`).
 */
export async function runOneShot(args: string[], importEntry: (entry: EsmEntry) => Promise<unknown>): Promise<void> {
  // Before anything else loads, so Node 22's compile cache covers what does.
  enableModuleCompileCache();
  tuneThisRun();
  provideEsmEntries(importEntry);
  // The program and the libraries every such run loads, read one after another into one buffer (code-cache.ts).
  holdReadBuffer();
  const { runProgram } = cachedBundle("program.cjs", AGENT_PROGRAM_ID) as typeof import("./program.js");
  commanderBundle();
  vendorBundle();
  releaseReadBuffer();
  await runProgram(args);
}

/**
 * Entry point. `--version` is answered before anything is loaded, and a bare `agent` or `agent --resume <id>`
 * in a terminal goes straight to the TUI without the command-line parser; everything else is imported on demand, so the
 * headless path never loads the TUI and the TUI never waits for what it does not use.
 */
import { isatty } from "node:tty";
import { enableModuleCompileCache, noteCompilerSettings } from "../util/code-cache.js";
import { nodeOptionsOf, tuneForOneShot, tuneServerStart } from "../util/one-shot-tuning.js";
import { cachedBundle } from "../util/vendor-bundle.js";
import { resumeArgument } from "./resume-argument.js";

declare const AGENT_VERSION: string;
declare const AGENT_PROGRAM_ID: string;

const args = process.argv.slice(2);
const version = args.length === 1 && (args[0] === "--version" || args[0] === "-v");
const resume = resumeArgument(args);
// Before the lazy imports below, so Node 22's compile cache covers them.
if (!version) enableModuleCompileCache();
if (version) {
  process.stdout.write(`agent ${AGENT_VERSION}\n`);
} else if ((args.length === 0 || resume !== undefined) && process.stdin.isTTY && process.stdout.isTTY) {
  // Raw mode from the first moment: what the user types while the TUI loads is neither echoed by the
  // terminal nor turned into a line of its own; it waits, unread, for the composer (see InputBus.attach).
  process.stdin.setRawMode(true);
  try {
    const [{ runInteractive }, { defaultCliOptions }] = await Promise.all([import("./interactive.js"), import("./default-options.js")]);
    process.exitCode = await runInteractive({ ...defaultCliOptions(), ...(resume !== undefined ? { resume } : {}) });
  } finally {
    process.stdin.setRawMode(false);
  }
} else if ((args.includes("--headless") || args.includes("--server")) && !args.includes("--help") && !args.includes("-h")) {
  // The Copilot SDK's server mode: the handshake is answered before the command line and the engine load. Its front
  // is ES modules, which answer the handshake; the engine comes from the program's script once that is done
  // (server-mode.ts): the script is one synchronous load (~50 ms from its cache) that would hold the handshake up.
  // Its first second is a one-shot run's (load, answer, open a session, read a stream): TurboFan and the old
  // generation's incremental marking wait for it (one-shot-tuning.ts), and the caches it writes are named for that.
  if (tuneServerStart(await v8Tuning())) noteCompilerSettings("server");
  const { runServer } = await import("./server-mode.js");
  process.exitCode = await runServer(args);
} else {
  // A one-shot run keeps V8's young generation small and starts without TurboFan (one-shot-tuning.ts). The TUI
  // (`agent --resume …`, `agent --model …` in a terminal), which lives long, keeps V8's defaults.
  const prompt = hasPromptFlag(args);
  if (prompt || !(isatty(0) && isatty(1))) {
    if (tuneForOneShot(await v8Tuning())) noteCompilerSettings("one-shot");
  }
  // A `-p` run never shows the TUI: its program is the one script dist/chunks/program.cjs, whose compiled code V8
  // caches (Node 20 caches no ES module's), instead of 70-odd ES module chunks (scripts/build.mjs).
  // A script cannot import() (scripts/build.mjs): the TUI, should the command line ask for it, is imported here.
  if (prompt) (globalThis as Record<symbol, unknown>)[Symbol.for("agent.importInteractive")] = () => import("./interactive.js");
  const { runProgram } = prompt ? (cachedBundle("program.cjs", AGENT_PROGRAM_ID) as typeof import("./program.js")) : await import("./program.js");
  await runProgram(args);
}

/**
 * A run with a prompt (`-p`): it answers and exits, as does one without a terminal to hold a TUI. Decided before
 * the command line is parsed (runsHeadless in prompt-source.ts decides after), with isatty as there: reading
 * process.stdin.isTTY would set up the stdin stream (~10 ms) in runs that never read it.
 */
function hasPromptFlag(argv: string[]): boolean {
  return argv.some((arg) => arg === "-p" || arg === "--prompt" || arg.startsWith("--prompt=") || (arg.startsWith("-p") && !arg.startsWith("--")));
}

/** What one-shot-tuning.ts needs of this process. */
async function v8Tuning(): Promise<Parameters<typeof tuneForOneShot>[0]> {
  const v8 = await import("node:v8");
  return { setFlags: v8.setFlagsFromString, nodeOptions: nodeOptionsOf(process), later: setTimeout, atExit: (run) => process.once("exit", run) };
}

/**
 * Entry point. `--version` is answered before anything is loaded, and a bare `agent` or `agent --resume <id>`
 * in a terminal goes straight to the TUI without the command-line parser; everything else is imported on demand, so the
 * headless path never loads the TUI and the TUI never waits for what it does not use. bin/agent.js sends a `-p` run
 * to dist/chunks/one-shot.cjs instead (launch-route.ts).
 */
import { isatty } from "node:tty";
import { enableModuleCompileCache } from "../util/code-cache.js";
import { launchRoute } from "./launch-route.js";
import { runOneShot, tuneThisRun, type EsmEntry } from "./one-shot.js";
import { resumeArgument } from "./resume-argument.js";

declare const AGENT_VERSION: string;

const args = process.argv.slice(2);
const route = launchRoute(args);
/** What the program's script leaves to this build (scripts/build.mjs), for the script's runs: `-p` and the server's engine. */
const importEsmEntry = (entry: EsmEntry): Promise<unknown> => (entry === "interactive" ? import("./interactive.js") : import("./subcommands.js"));
// Before the lazy imports below, so Node 22's compile cache covers them.
if (route !== "version") enableModuleCompileCache();
if (route === "version") {
  process.stdout.write(`agent ${AGENT_VERSION}\n`);
} else if (route === "tui") {
  // Raw mode from the first moment: what the user types while the TUI loads is neither echoed by the
  // terminal nor turned into a line of its own; it waits, unread, for the composer (see InputBus.attach).
  process.stdin.setRawMode(true);
  try {
    const resume = resumeArgument(args);
    const [{ runInteractive }, { defaultCliOptions }] = await Promise.all([import("./interactive.js"), import("./default-options.js")]);
    process.exitCode = await runInteractive({ ...defaultCliOptions(), ...(resume !== undefined ? { resume } : {}) });
  } finally {
    process.stdin.setRawMode(false);
  }
} else if (route === "server") {
  // The Copilot SDK's server mode (bin/agent.js starts it from dist/chunks/server-start.cjs instead).
  const { startServer } = await import("./server-start.js");
  process.exitCode = await startServer(args, importEsmEntry);
} else if (route === "one-shot") {
  await runOneShot(args, importEsmEntry);
} else {
  // No terminal to hold a TUI: it answers and exits, as a `-p` run does. The TUI (`agent --model …` in a terminal)
  // keeps V8's defaults.
  if (!(isatty(0) && isatty(1))) tuneThisRun();
  const { runProgram } = await import("./program.js");
  await runProgram(args);
}

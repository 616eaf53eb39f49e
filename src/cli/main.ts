/**
 * Entry point. `--version` is answered before anything is loaded; everything else is imported on demand,
 * so the headless path never loads the TUI and the TUI never waits for what it does not use.
 */
declare const AGENT_VERSION: string;

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  process.stdout.write(`agent ${AGENT_VERSION}\n`);
} else {
  const { runProgram } = await import("./program.js");
  await runProgram(args);
}

/**
 * The subcommands and the SDK's server mode as one ES module entry, dist/subcommands.js: a `-p` run's script
 * (dist/chunks/program.cjs) leaves them out and imports this in the odd case its command line asks for one
 * (scripts/build.mjs).
 */
export { runAcp } from "./acp-command.js";
export { runMcpCommand } from "./mcp-command.js";
export { runMemoryCommand } from "./memory-command.js";
export { runPluginCommand } from "./plugin-command.js";
export { runReplayCommand } from "./replay-command.js";
export { runServer } from "./server-mode.js";

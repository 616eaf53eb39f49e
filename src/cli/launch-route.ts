/**
 * Which way a command line starts, decided before anything is loaded: by main.ts (dist/cli.js), and by bin/agent.js
 * through the small script dist/chunks/launch-route.cjs, which sends a `-p` run to dist/chunks/one-shot.cjs so that it
 * never starts Node's ES module loader (one-shot.ts).
 *
 * - "version": `--version` alone, answered at once.
 * - "tui": a bare `agent` or `agent --resume <id>` in a terminal, straight to the TUI without the command-line parser.
 * - "server": the Copilot SDK's server mode (`--headless`, `--server`).
 * - "one-shot": a run with a prompt (`-p`): it answers and exits.
 * - "program": anything else, through the command-line parser.
 *
 * Terminals are told with isatty: reading process.stdin.isTTY would set up the stdin stream (~10 ms) in runs that
 * never read it.
 */
import { isatty } from "node:tty";
import { resumeArgument } from "./resume-argument.js";

export type LaunchRoute = "version" | "tui" | "server" | "one-shot" | "program";

export function launchRoute(args: readonly string[]): LaunchRoute {
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) return "version";
  if ((args.length === 0 || resumeArgument(args) !== undefined) && isatty(0) && isatty(1)) return "tui";
  if ((args.includes("--headless") || args.includes("--server")) && !args.includes("--help") && !args.includes("-h")) return "server";
  return hasPromptFlag(args) ? "one-shot" : "program";
}

/** Decided before the command line is parsed (runsHeadless in prompt-source.ts decides after). */
function hasPromptFlag(args: readonly string[]): boolean {
  return args.some((arg) => arg === "-p" || arg === "--prompt" || arg.startsWith("--prompt=") || (arg.startsWith("-p") && !arg.startsWith("--")));
}

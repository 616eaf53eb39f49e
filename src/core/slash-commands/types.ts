/**
 * A slash command is one data object: its name, aliases, a description for the palette and /help, and a
 * run function that acts on the session and returns what the front end should do next. The core defines
 * them; the TUI (and later a JSON-RPC client) only interprets the result.
 */
import type { RunResult } from "../../protocol/commands.js";
import type { AgentSession } from "../agent-session.js";

export type SlashCommandResult =
  /** The command's own events say everything. */
  | { kind: "done" }
  /** Told as session.info (infoType "command", or the one given: "context", "usage") or session.warning. */
  | { kind: "message"; text: string; level?: "info" | "warning" | "error"; infoType?: string }
  /** Send this prompt to the model. */
  | { kind: "prompt"; prompt: string }
  /** Work the command started (a compaction): a face waits for it as for a prompt's run, without holding input. */
  | { kind: "run"; run: Promise<RunResult> }
  /** Open a dialog the front end provides. */
  | { kind: "dialog"; dialog: "help" | "model" | "resume" | "agent" }
  /** Start a fresh session in the same directory. */
  | { kind: "new-session" }
  | { kind: "exit" };

export interface SlashCommandContext {
  session: AgentSession;
  /** Everything after the command name, trimmed. */
  args: string;
}

export interface SlashCommand {
  name: string;
  aliases?: readonly string[];
  description: string;
  /** Shown after the name in the palette: `[on|off|<objective>]`. */
  argsHint?: string;
  run(context: SlashCommandContext): SlashCommandResult | Promise<SlashCommandResult>;
}

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
  /**
   * Send this prompt to the model. `source` marks a prompt built from a template (`command:review`): faces
   * show the command as typed, not the template.
   */
  | { kind: "prompt"; prompt: string; source?: string }
  /** Work the command started (a compaction): a face waits for it as for a prompt's run, without holding input. */
  | { kind: "run"; run: Promise<RunResult> }
  /** Open a dialog the front end provides. */
  | { kind: "dialog"; dialog: "help" | "model" | "resume" | "agent" | "tasks" | "rewind" }
  /** Start a fresh session in the same directory. */
  | { kind: "new-session" }
  /** Go on in another stored session (a fork); `note` says what happened. */
  | { kind: "switch-session"; sessionId: string; note: string }
  | { kind: "exit" }
  /** A block of text for the person (a plan, a checkpoint); -p prints it to stdout. */
  | { kind: "show"; title: string; text: string }
  /** A unified diff of the working tree: rendered with colour by the TUI, plain from -p. */
  | { kind: "diff"; patch: string; summary: string }
  /** Text for the clipboard: the face copies it (the TUI through the terminal, OSC 52). */
  | { kind: "copy"; text: string }
  /** A file for the person to edit: the TUI opens $EDITOR on it; other faces give its path. */
  | { kind: "edit"; path: string; title: string };

export interface SlashCommandContext {
  session: AgentSession;
  /** Everything after the command name, trimmed. */
  args: string;
  /** Says something to every face, as a session.info line (`Fleet deployed: …`). */
  info?(infoType: string, message: string): void;
}

export interface SlashCommand {
  name: string;
  aliases?: readonly string[];
  description: string;
  /** Shown after the name in the palette: `[on|off|<objective>]`. */
  argsHint?: string;
  run(context: SlashCommandContext): SlashCommandResult | Promise<SlashCommandResult>;
}

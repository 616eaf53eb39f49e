/**
 * Commands into the engine: every change to a session is one of these, sent through one `dispatch`. The TUI,
 * the headless runner and the server faces build commands; none of them touches engine objects.
 */
import type { AgentMode, Attachment } from "./events/index.js";
import type { InteractionReply } from "./interactions.js";

/** How a prompt sent while the agent works is delivered: queued after the current prompt, or steering it. */
export type Delivery = "enqueue" | "immediate";

export type SessionCommand =
  /** Text as a person typed it: slash commands, `!cmd` and `@path` mentions are resolved by the core. */
  | { type: "input"; text: string; attachments?: Attachment[]; delivery?: Delivery }
  /** A prompt for the model as it is (no routing). */
  | { type: "send"; prompt: string; attachments?: Attachment[]; source?: string; delivery?: Delivery }
  | { type: "interrupt" }
  /** Answers a pending question (permission, user input, plan approval, client tool, elicitation). */
  | { type: "respond"; requestId: string; reply: InteractionReply }
  | { type: "set_mode"; mode: AgentMode }
  | { type: "set_model"; model: string }
  /** /agent, --agent: runs the main session as this custom agent (its prompt, its tools); null goes back to the default. */
  | { type: "select_agent"; name: string | null }
  /** /allow-all on|off: approve every tool, path and URL (deny rules and the floor still apply). */
  | { type: "set_allow_all"; on: boolean }
  /** /reset-allowed-tools: forget this session's approvals. */
  | { type: "reset_allowed_tools" }
  /** `!cmd`: a command the user runs; its output reaches the model with the next prompt. */
  | { type: "run_shell"; command: string }
  /** Takes a queued prompt out of the queue (to edit it, or to drop it). */
  | { type: "unqueue"; id: string }
  /** Sends what is queued (after an interrupt the queue waits for this). */
  | { type: "flush_queue" }
  /**
   * Waits for the background agents (a run without a person does before it exits): the main agent gets a
   * turn for each answer; past the timeout they are cancelled.
   */
  | { type: "settle_background"; timeoutMs: number }
  /** A follow-up for a background agent (it wakes if it waits). */
  | { type: "message_agent"; agentId: string; message: string }
  /** Cancels a background agent (and what it started). */
  | { type: "cancel_agent"; agentId: string }
  /** A message for the session's record from its client (the Copilot SDK's session.log): info, warning or error. */
  | { type: "log"; level: "info" | "warning" | "error"; message: string }
  | { type: "shutdown"; reason?: string };

export type RunOutcome = "completed" | "task_complete" | "max_continues" | "error" | "aborted";

/** How one prompt ended. */
export interface RunResult {
  outcome: RunOutcome;
  /** The last non-empty assistant message of the run. */
  finalMessage: string;
  /** task_complete's summary. */
  summary?: string;
  error?: { kind: string; message: string; statusCode?: number };
  /** Autopilot continuation messages injected. */
  continuations: number;
}

/** A prompt waiting in the queue, as `unqueue` hands it back. */
export interface QueuedItem {
  id: string;
  prompt: string;
  attachments?: Attachment[];
}

/** What `dispatch` returns for each command. */
export interface CommandResults {
  input: Promise<InputResult>;
  send: Promise<RunResult>;
  interrupt: void;
  /** An error message when the answer was not taken (no such request, or a reply of the wrong shape). */
  respond: string | undefined;
  set_mode: void;
  set_model: void;
  /** An error message when there is no such agent (naming the valid ones). */
  select_agent: string | undefined;
  set_allow_all: void;
  reset_allowed_tools: void;
  run_shell: Promise<void>;
  unqueue: QueuedItem | undefined;
  flush_queue: void;
  /** The last turn the main agent took for its agents' answers, if any. */
  settle_background: Promise<RunResult | undefined>;
  /** Why it was not taken, or undefined. */
  message_agent: string | undefined;
  /** False when no such agent is running. */
  cancel_agent: boolean;
  /** The id of the event the message became. */
  log: string;
  shutdown: void;
}
export type CommandResult<C extends SessionCommand> = CommandResults[C["type"]];

/** What a face should do after `input` was routed: most input needs nothing more than the events it causes. */
export type InputResult =
  /** Sent to the model (now or queued); `run` settles when that prompt's run ends. */
  | { kind: "prompt"; run: Promise<RunResult> }
  /** Handled by the core (a slash command that only changed state, a shell command). */
  | { kind: "done" }
  /** A slash command that needs the face: a dialog, a new session, exit. */
  | { kind: "dialog"; dialog: "help" | "model" | "resume" | "agent" }
  | { kind: "new-session" }
  | { kind: "exit" }
  /** `/name` that is no command (a session.warning says so, with the closest match). */
  | { kind: "unknown-command"; name: string };

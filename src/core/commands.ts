/** Commands into the engine. Every transport (TUI, headless, JSON-RPC) drives a session with these. */
import type { AgentMode } from "./events/index.js";
import type { PermissionReply } from "./permission-broker.js";

export type SessionCommand =
  | { type: "user_message"; prompt: string; source?: string }
  | { type: "interrupt" }
  | { type: "permission_reply"; requestId: string; reply: PermissionReply }
  | { type: "set_mode"; mode: AgentMode };

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

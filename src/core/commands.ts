/** Commands into the engine. Every transport (TUI, headless, JSON-RPC) drives a session with these. */
import type { AgentMode } from "./events/index.js";
import type { PermissionReply } from "./permission-broker.js";

export type SessionCommand =
  | { type: "user_message"; prompt: string; source?: string }
  | { type: "interrupt" }
  | { type: "permission_reply"; requestId: string; reply: PermissionReply }
  | { type: "set_mode"; mode: AgentMode }
  /** /allow-all on|off: approve every tool, path and URL (deny rules and the floor still apply). */
  | { type: "set_allow_all"; on: boolean }
  /** /reset-allowed-tools: forget this session's approvals. */
  | { type: "reset_allowed_tools" };

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

/** The view state of the conversation, built from engine events by reduceTranscript. */
import type { AgentMode, BackgroundTasks, PermissionRequest } from "../../core/events/index.js";

export type TranscriptItem =
  | { kind: "user"; id: string; text: string; shell?: boolean }
  | { kind: "assistant"; id: string; markdown: string }
  | { kind: "reasoning"; id: string; text: string }
  | {
      kind: "tool";
      id: string;
      name: string;
      title: string;
      status: "success" | "failure";
      /** One line for the transcript. */
      summary: string;
      /** Everything, for ctrl+o. */
      output: string;
      /** A unified diff for edit and create. */
      diff?: string;
      durationMs: number;
    }
  | { kind: "notice"; id: string; level: "info" | "warning" | "error"; text: string }
  | { kind: "task-complete"; id: string; summary: string }
  | { kind: "subagent"; id: string; name: string; status: "completed" | "failed"; detail: string }
  /** A tool's whole output, printed on request (Ctrl+O). */
  | { kind: "output"; id: string; title: string; text: string };

export interface RunningTool {
  toolCallId: string;
  name: string;
  title: string;
  startedAt: number;
  /** The tail of what it printed so far. */
  output: string;
  progress?: string;
}

export interface BackgroundTask {
  id: string;
  name: string;
  type: string;
  status: "running" | "idle" | "completed" | "failed";
  startedAt: number;
  intent?: string;
}

export interface TranscriptState {
  /** Finished items, in order; they only grow (rendered once, into <Static>). */
  items: TranscriptItem[];
  /** The streaming assistant text not yet moved into items. */
  live?: { messageId: string; text: string };
  liveReasoning?: { id: string; text: string };
  running: RunningTool[];
  /** Permission requests waiting for an answer; the first one is shown. */
  permissions: { requestId: string; request: PermissionRequest }[];
  background: BackgroundTask[];
  backgroundShells: number;
  busy: boolean;
  mode: AgentMode;
  model: string;
  usage?: { currentTokens: number; tokenLimit: number };
  intent?: string;
  turnStartedAt?: number;
  /** The session is still opening: prompts wait in the queue. */
  starting?: boolean;
  /**
   * A resumed session: the first `count` items were printed by the runner itself (see print-past.ts), so
   * <Static> skips them until the reprint after `refreshKey` (which prints everything).
   */
  printedOutside?: { refreshKey: number; count: number };
  /** A resumed session's last exchange, shown below the history while the rest of it is being printed. */
  preview?: string;
}

export function initialTranscript(options: { mode: AgentMode; model: string }): TranscriptState {
  return { items: [], running: [], permissions: [], background: [], backgroundShells: 0, busy: false, mode: options.mode, model: options.model };
}

export type { BackgroundTasks };

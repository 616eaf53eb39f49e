/** The view state of the conversation, built from engine events by reduceTranscript. */
import type { AgentMode, BackgroundTasks, PermissionOption, PermissionRequest } from "../../protocol/events/index.js";

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
      /** A command the person ran with `!cmd`: its output is what they asked to see, so it is shown (bounded). */
      userRequested?: boolean;
    }
  | { kind: "notice"; id: string; level: "info" | "warning" | "error"; text: string }
  /** The fleet view's opening line ("Fleet deployed: <task>"); the todo panel below the transcript follows it. */
  | { kind: "fleet"; id: string; text: string }
  | { kind: "task-complete"; id: string; summary: string }
  | { kind: "subagent"; id: string; name: string; status: "completed" | "failed"; detail: string }
  /** A tool's whole output, printed on request (Ctrl+O). */
  | { kind: "output"; id: string; title: string; text: string }
  /** The working tree's changes (/diff): a summary line, then each file's diff. */
  | { kind: "diff"; id: string; summary: string; patch: string }
  /** /context: the prompt limit's use, drawn as a grid; `footnote` is the report's last line (when it compacts). */
  | { kind: "context"; id: string; usage: ContextUsageView; model: string; footnote: string };

/** How the prompt limit is used, as /context's session.usage_info tells it. */
export interface ContextUsageView {
  tokenLimit: number;
  currentTokens: number;
  messagesLength: number;
  systemTokens: number;
  toolsTokens: number;
  mcpToolsTokens: number;
  messagesTokens: number;
  /** Memory's context board (out of the system prompt's count), when memory is on. */
  contextBoardTokens?: number;
}

export interface RunningTool {
  toolCallId: string;
  name: string;
  title: string;
  startedAt: number;
  /** The tail of what it printed so far. */
  output: string;
  progress?: string;
  /** A sync subagent run by this call (the task tool): who, what it is doing, how much it has done. */
  agent?: { name: string; intent?: string; toolCalls: number; use?: AgentUse };
}

/** A subagent's budget as subagent.started gives it (absent: no limit). */
export interface AgentBudgetView {
  maxTurns?: number;
  maxTokens?: number;
  maxDurationMs?: number;
}

/** What a running subagent has used so far, against its budget. */
export interface AgentUse {
  turns: number;
  tokens: number;
  budget?: AgentBudgetView;
}

export interface BackgroundTask {
  id: string;
  name: string;
  type: string;
  status: "running" | "idle" | "completed" | "failed" | "cancelled";
  startedAt: number;
  intent?: string;
  use?: AgentUse;
}

/** A question other than a permission, waiting for a person: a plan review, a form, a plain question. */
export type PendingInteraction =
  | { kind: "exit_plan_mode"; requestId: string; agentId?: string; summary: string; planContent: string; actions: string[]; recommendedAction: string }
  | {
      kind: "elicitation";
      requestId: string;
      agentId?: string;
      /** The MCP server asking, when it is one (not ask_user). */
      server?: string;
      message: string;
      properties: Record<string, unknown>;
      required?: string[];
    }
  | { kind: "user_input"; requestId: string; agentId?: string; question: string; choices?: string[]; allowFreeform?: boolean };

export interface TranscriptState {
  /** Finished items, in order; they only grow (rendered once, into <Static>). */
  items: TranscriptItem[];
  /** The streaming assistant text not yet moved into items. */
  /** `carry`: the start of an escape sequence cut off at the end of the last chunk (see splitTrailingEscape). */
  live?: { messageId: string; text: string; carry?: string };
  liveReasoning?: { id: string; text: string };
  running: RunningTool[];
  /** Permission requests waiting for an answer; the first one is shown. */
  permissions: {
    requestId: string;
    request: PermissionRequest;
    /** The answers the broker offers. */
    options?: PermissionOption[];
    /** A subagent's question: which agent asks. */
    agentId?: string;
  }[];
  /** Plan reviews, forms and questions waiting for an answer (any agent's); the first one is shown. */
  questions: PendingInteraction[];
  /** The text of the last plan put up for review (Ctrl+Y shows it). */
  lastPlan?: string;
  background: BackgroundTask[];
  backgroundShells: number;
  busy: boolean;
  mode: AgentMode;
  /** Autopilot's objective (/autopilot <objective>): the goal line. */
  objective?: string;
  model: string;
  /** The custom agent the session runs as (/agent, --agent). */
  agentName?: string;
  usage?: { currentTokens: number; tokenLimit: number };
  /** The last full breakdown of the context (/context). */
  context?: ContextUsageView;
  /** The main agent's conversation is being compacted. */
  compacting?: boolean;
  intent?: string;
  turnStartedAt?: number;
  /** The session is still opening: prompts wait until it is open. */
  starting?: boolean;
  /** Prompts the engine holds to send after the current one (pending_messages.modified). */
  queue: { id: string; prompt: string }[];
  /** After an interrupt the queue waits until the user sends it. */
  queuePaused: boolean;
  /** What approves calls without asking, with its sources. */
  permissionSummary: PermissionSummaryView;
  /**
   * A resumed session: the first `count` items were printed by the runner itself (see print-past.ts), so
   * <Static> skips them until the reprint after `refreshKey` (which prints everything).
   */
  printedOutside?: { refreshKey: number; count: number };
  /** A resumed session's last exchange, shown below the history while the rest of it is being printed. */
  preview?: string;
}

export interface PermissionSummaryView {
  tools: string[];
  paths: string[];
  urls: string[];
  broadRules: string[];
}

export const NO_PERMISSION_SUMMARY: PermissionSummaryView = { tools: [], paths: [], urls: [], broadRules: [] };

export function initialTranscript(options: { mode: AgentMode; model: string; agentName?: string; permissionSummary?: PermissionSummaryView }): TranscriptState {
  return {
    items: [],
    running: [],
    permissions: [],
    questions: [],
    background: [],
    backgroundShells: 0,
    busy: false,
    mode: options.mode,
    model: options.model,
    ...(options.agentName ? { agentName: options.agentName } : {}),
    queue: [],
    queuePaused: false,
    permissionSummary: options.permissionSummary ?? NO_PERMISSION_SUMMARY,
  };
}

export type { BackgroundTasks };

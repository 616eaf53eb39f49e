/**
 * What a session is now, as every face sees it: a readonly snapshot that is the fold of every event so far
 * (reduce-session-state.ts), live and over the log on resume. A new snapshot replaces the old one on every
 * change; slices that did not change are the same objects (a face compares by reference).
 *
 * Some facts are this process's, not the log's: the permissions in force (flags and /allow-all are never
 * restored), the queue, what runs (busy, shells), the MCP servers and the todo list (read from the session's
 * database). `beginProcess` sets them when a process opens the session; their events are ephemeral.
 */
import type { AgentMode, Attachment, SessionLimits, WorkingDirectoryContext } from "../../protocol/events/index.js";
import type { TodoItem } from "../../protocol/todos.js";
import type { PermissionSummary } from "../permission-summary.js";
import type { AgentState } from "./agents-state.js";
import { beginProcessUsage, initialUsage, type UsageState } from "./usage-state.js";

export type { AgentState, AgentStatus } from "./agents-state.js";
export type { EarlierUsage, ModelMetric, ProcessUsage, UsageState } from "./usage-state.js";

/** The custom agent the main session runs as (/agent, --agent). */
export interface SelectedAgentState {
  name: string;
  displayName: string;
  /** The tools it may use; null: all. */
  tools: readonly string[] | null;
}

export interface PermissionState {
  /** Every tool, path and URL is allowed without asking. */
  allowAll: boolean;
  /** Everything that approves calls without asking, with where it came from. */
  summary: PermissionSummary;
  /** The directories tools may use without asking, once /add-dir or /cwd changed them. */
  directories?: readonly string[];
}

export interface QueuedPrompt {
  id: string;
  /** As typed (a command's line, not its template). */
  prompt: string;
  attachments?: readonly Attachment[];
}

export interface QueueState {
  /** What waits to be sent after the current prompt, in order. */
  items: readonly QueuedPrompt[];
  /** Held after an interrupt until flushed. */
  paused: boolean;
}

export interface ShellState {
  shellId: string;
  description?: string;
}

export type McpServerStatus = "connected" | "failed" | "needs-auth" | "pending" | "disabled" | "stopped" | "not_configured";

export interface McpServerState {
  name: string;
  status: McpServerStatus;
  source?: string;
  /** How it is reached: stdio, http or sse. */
  transport?: string;
  error?: string;
}

export interface SessionState {
  /** The session's name (--name, /rename), when it has one. */
  name: string | undefined;
  cwd: string;
  /** Where the session works: the directory, its git root and branch. */
  context: WorkingDirectoryContext | undefined;
  mode: AgentMode;
  model: string;
  reasoningEffort?: string;
  selectedAgent: SelectedAgentState | undefined;
  /** Autopilot's objective (/autopilot <objective>), while autopilot is on. */
  objective: string | undefined;
  /** The session's limits (an SDK app's sessionLimits), null when none. */
  sessionLimits: SessionLimits | null;
  /** The model has been told the limits as they are now (session-limits.ts). */
  sessionLimitsTold: boolean;
  permissions: PermissionState;
  /** Model turns so far, every agent's, in every process. */
  turns: number;
  /** Something was said in the main conversation (a prompt, an answer, a notification). */
  hasConversation: boolean;
  usage: UsageState;
  /** Every subagent of the session, earlier processes' too, in the order they started. */
  agents: readonly AgentState[];
  /** Background shells still running. */
  shells: readonly ShellState[];
  /** The todo list, each todo with the background agent working on it when known. */
  todos: readonly TodoItem[];
  /** The todo list as the database has it (agents named only where the model wrote them). */
  todosAsWritten: readonly TodoItem[];
  queue: QueueState;
  mcpServers: readonly McpServerState[];
  /** The main agent is running a prompt (or a `!command`, or a /compact). */
  busy: boolean;
}

const NO_PERMISSIONS: PermissionState = { allowAll: false, summary: { tools: [], paths: [], urls: [], broadRules: [] } };

/** What belongs to one process (no log tells it): none of it is there when a process opens the session. */
function processOwn(): Pick<SessionState, "shells" | "todos" | "todosAsWritten" | "queue" | "mcpServers" | "busy"> {
  return { shells: [], todos: [], todosAsWritten: [], queue: { items: [], paused: false }, mcpServers: [], busy: false };
}

export function initialSessionState(now = Date.now()): SessionState {
  return {
    name: undefined,
    cwd: "",
    context: undefined,
    mode: "interactive",
    model: "",
    selectedAgent: undefined,
    objective: undefined,
    sessionLimits: null,
    sessionLimitsTold: false,
    permissions: NO_PERMISSIONS,
    turns: 0,
    hasConversation: false,
    usage: initialUsage(now),
    agents: [],
    ...processOwn(),
  };
}

/** What a process knows when it opens a session, before any event of its own. */
export interface ProcessFacts {
  model: string;
  reasoningEffort?: string;
  context: WorkingDirectoryContext;
  permissions: PermissionState;
  /** The name the session's metadata holds (a rename is not in the log). */
  name?: string;
  startTime: number;
}

/**
 * A process opens the session (new, or resumed after the fold of its log): its own facts replace what only
 * the process that wrote them could know.
 */
export function beginProcess(state: SessionState, facts: ProcessFacts): SessionState {
  const { reasoningEffort: _logged, ...logged } = state;
  return {
    ...logged,
    ...(facts.reasoningEffort ? { reasoningEffort: facts.reasoningEffort } : {}),
    name: facts.name ?? state.name,
    cwd: facts.context.cwd,
    context: facts.context,
    model: facts.model,
    permissions: facts.permissions,
    usage: beginProcessUsage(state.usage, facts.startTime),
    ...processOwn(),
  };
}

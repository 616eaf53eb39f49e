/**
 * The one reducer of a session's state: (state, event) → state, pure, the same live and over the log on
 * resume. It is on the hot path (every event, streamed deltas included): deltas return at once, an event
 * that changes nothing returns the same state, and a change copies only the slice it touches.
 */
import type { SessionEvent } from "../../protocol/events/index.js";
import type { TodoItem } from "../../protocol/todos.js";
import { linkTodoAgents } from "../fleet/todo-agents.js";
import { reduceAgents, type AgentState } from "./agents-state.js";
import type { McpServerState, SessionState } from "./session-state.js";
import { reduceUsage } from "./usage-state.js";

/** Streamed pieces: nothing of the state follows from them. */
const STREAMED = new Set<string>([
  "assistant.message_delta",
  "assistant.reasoning_delta",
  "assistant.streaming_delta",
  "assistant.intent",
  "tool.execution_partial_result",
  "tool.execution_progress",
]);

export function reduceSessionState(state: SessionState, event: SessionEvent): SessionState {
  if (STREAMED.has(event.type)) return state;
  const next = event.agentId ? reduceAnyAgent(state, event) : reduceMain(state, event);
  const agents = reduceAgents(next.agents, event);
  const usage = reduceUsage(next.usage, event);
  if (agents === next.agents && usage === next.usage) return next;
  return withAgents({ ...next, usage }, agents);
}

/** Background agents' ids, in order: the fleet convention links todos to them. */
function backgroundIds(agents: readonly AgentState[]): string[] {
  const ids: string[] = [];
  for (const agent of agents) if (agent.background && agent.id !== undefined) ids.push(agent.id);
  return ids;
}

function withTodos(state: SessionState, written: readonly TodoItem[]): SessionState {
  return { ...state, todosAsWritten: written, todos: linkTodoAgents(written, backgroundIds(state.agents)) };
}

function withAgents(state: SessionState, agents: readonly AgentState[]): SessionState {
  if (agents === state.agents) return state;
  const before = state.agents;
  const next = { ...state, agents };
  // A todo follows the agent started for it: linked again when the background agents' ids change.
  if (state.todosAsWritten.length === 0 || backgroundIds(before).join("\n") === backgroundIds(agents).join("\n")) return next;
  return withTodos(next, state.todosAsWritten);
}

/** Events of any agent that count for the whole session. */
function reduceAnyAgent(state: SessionState, event: SessionEvent): SessionState {
  return event.type === "assistant.turn_start" ? { ...state, turns: state.turns + 1 } : state;
}

function reduceMain(state: SessionState, event: SessionEvent): SessionState {
  switch (event.type) {
    case "session.start": {
      const { data } = event;
      return {
        ...state,
        // A name in the state already comes from the session's metadata, which a rename keeps up to date.
        name: state.name ?? data.name,
        ...(data.context ? { cwd: data.context.cwd, context: data.context } : {}),
        ...(data.selectedModel ? { model: data.selectedModel } : {}),
        ...(data.reasoningEffort ? { reasoningEffort: data.reasoningEffort } : {}),
        ...(data.mode ? { mode: data.mode } : {}),
        ...(data.sessionLimits ? { sessionLimits: data.sessionLimits, sessionLimitsTold: false } : {}),
      };
    }
    case "session.resume": {
      const { data } = event;
      // A client joining the open session changes nothing of it.
      if (data.alreadyInUse !== undefined) return state;
      const { reasoningEffort: _before, ...rest } = state;
      return {
        ...rest,
        ...(data.context ? { cwd: data.context.cwd, context: data.context } : {}),
        ...(data.selectedModel ? { model: data.selectedModel } : {}),
        // The process that resumes runs with its own effort (none when it names none).
        ...(data.reasoningEffort ? { reasoningEffort: data.reasoningEffort } : {}),
      };
    }
    case "session.context_changed":
      return { ...state, cwd: event.data.cwd, context: event.data };
    case "session.title_changed":
      return { ...state, name: event.data.title };
    case "session.mode_changed":
      return { ...state, mode: event.data.newMode };
    case "session.session_limits_changed":
      return { ...state, sessionLimits: event.data.sessionLimits, sessionLimitsTold: false };
    case "session.objective_changed":
      return { ...state, objective: event.data.objective };
    case "session.model_change": {
      // The effort after the switch; none when the event names none.
      const { reasoningEffort: _before, ...rest } = state;
      return { ...rest, model: event.data.newModel, ...(event.data.reasoningEffort ? { reasoningEffort: event.data.reasoningEffort } : {}) };
    }
    case "subagent.selected":
      return { ...state, selectedAgent: { name: event.data.agentName, displayName: event.data.agentDisplayName, tools: event.data.tools } };
    case "subagent.deselected":
      return { ...state, selectedAgent: undefined };
    case "session.permissions_changed": {
      const { mode, summary, directories } = event.data;
      return {
        ...state,
        permissions: {
          allowAll: mode === "allow-all",
          summary: summary ?? state.permissions.summary,
          ...(directories ? { directories } : state.permissions.directories ? { directories: state.permissions.directories } : {}),
        },
      };
    }
    case "assistant.turn_start":
      return { ...state, turns: state.turns + 1, busy: true };
    case "system.message":
    case "tool.user_requested":
    case "session.mcp_wait_started":
      return state.busy ? state : { ...state, busy: true };
    case "user.message":
    case "assistant.message":
    case "system.notification": {
      const busy = state.busy || event.type === "user.message";
      if (event.type === "user.message" && event.data.limitsStatus !== undefined) return { ...state, hasConversation: true, busy, sessionLimitsTold: true };
      return state.hasConversation && state.busy === busy ? state : { ...state, hasConversation: true, busy };
    }
    case "session.compaction_start":
      // /compact runs on its own (no prompt around it): it keeps the agent busy until it completes.
      return event.data.trigger === "manual" ? { ...state, busy: true } : state;
    case "session.compaction_complete":
      return event.data.trigger === "manual" ? { ...state, busy: false } : state;
    case "session.idle":
      return {
        ...state,
        busy: false,
        ...(event.data.backgroundTasks ? { shells: event.data.backgroundTasks.shells } : {}),
      };
    case "session.shutdown":
      return { ...state, busy: false };
    case "pending_messages.modified":
      return {
        ...state,
        queue: {
          items: (event.data.items ?? []).map((item) => ({ id: item.id, prompt: item.prompt, ...(item.attachments ? { attachments: item.attachments } : {}) })),
          paused: event.data.paused ?? false,
        },
      };
    case "session.background_tasks_changed":
      return event.data.shells ? { ...state, shells: event.data.shells } : state;
    case "session.todos_changed":
      return event.data.todos ? withTodos(state, event.data.todos) : state;
    case "session.mcp_servers_loaded":
      return { ...state, mcpServers: event.data.servers };
    case "session.mcp_server_status_changed": {
      const { serverName, status, error } = event.data;
      const known = state.mcpServers.some((server) => server.name === serverName);
      const changed = { name: serverName, status, ...(error !== undefined ? { error } : {}) };
      // Where it is configured and how it is reached stay; its state and error are the event's.
      const updated = (server: McpServerState) => ({
        ...changed,
        ...(server.source ? { source: server.source } : {}),
        ...(server.transport ? { transport: server.transport } : {}),
      });
      return {
        ...state,
        mcpServers: known ? state.mcpServers.map((server) => (server.name === serverName ? updated(server) : server)) : [...state.mcpServers, changed],
      };
    }
    default:
      return state;
  }
}

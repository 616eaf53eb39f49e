/**
 * The session's background work over the SDK (session.tasks.*): its agents, read from the session's state
 * (the fold of their events), and changed by the engine's commands, as /tasks changes them: a message
 * (message_agent), a cancel (cancel_agent), a sync agent moved to the background (background_agent).
 */
import { z } from "zod";
import type { AgentState, SessionView } from "../../core/index.js";
import type { TASK_METHODS } from "./command-method-names.js";
import { ownedSession, type MethodTable, type Owned } from "./owned-session.js";
import { sessionIdOf } from "../wire.js";

const idSchema = z.looseObject({ sessionId: z.string(), id: z.string() });
const messageSchema = z.looseObject({ sessionId: z.string(), id: z.string(), message: z.string() });
const startSchema = z.looseObject({ sessionId: z.string(), agentType: z.string(), model: z.string().optional() });

const idOf = (agent: AgentState) => agent.id ?? agent.toolCallId;

/** An agent as the SDK's TaskInfo describes it. */
function taskInfo(agent: AgentState) {
  return {
    id: idOf(agent),
    type: "agent",
    toolCallId: agent.toolCallId,
    agentType: agent.type,
    description: agent.description,
    status: agent.status,
    executionMode: agent.background ? "background" : "sync",
    startedAt: new Date(agent.startedAt).toISOString(),
    ...(agent.endedAt !== undefined ? { completedAt: new Date(agent.endedAt).toISOString() } : {}),
    ...(agent.model ? { model: agent.model } : {}),
    ...(agent.error ? { error: agent.error } : {}),
  };
}

const find = (session: SessionView, id: string) => session.state.agents.find((agent) => idOf(agent) === id || agent.toolCallId === id);
const promotable = (session: SessionView) => session.state.agents.find((agent) => !agent.background && agent.status === "running");

/** Resolves once no agent of the session is running (each agent's end is an event the state folds). */
function noneRunning(session: SessionView): Promise<void> {
  const running = () => session.state.agents.some((agent) => agent.status === "running");
  if (!running()) return Promise.resolve();
  return new Promise((resolve) => {
    const off = session.subscribe(() => {
      if (running()) return;
      off();
      resolve();
    });
  });
}

export function taskMethods(owned: Owned): MethodTable<(typeof TASK_METHODS)[number]> {
  const session = (link: Parameters<Owned>[0], params: unknown) => ownedSession(owned, link, sessionIdOf(params));
  return {
    "session.tasks.list": (link, params) => ({ tasks: session(link, params).state.agents.map(taskInfo) }),
    // The state is the fold of the agents' events: always current.
    "session.tasks.refresh": (link, params) => ({ tasks: session(link, params).state.agents.map(taskInfo) }),
    "session.tasks.waitForPending": async (link, params) => {
      const view = session(link, params);
      await noneRunning(view);
      return { tasks: view.state.agents.map(taskInfo) };
    },
    "session.tasks.getProgress": (link, params) => {
      const agent = find(session(link, params), idSchema.parse(params).id);
      return { progress: agent ? { ...taskInfo(agent), recentActivity: agent.transcript.map((line) => JSON.stringify(line)) } : null };
    },
    "session.tasks.getCurrentPromotable": (link, params) => {
      const agent = promotable(session(link, params));
      return agent ? { task: taskInfo(agent) } : {};
    },
    "session.tasks.promoteToBackground": (link, params) => {
      const view = session(link, params);
      const agent = find(view, idSchema.parse(params).id);
      if (!agent || agent.background || agent.status !== "running") return { promoted: false };
      return { promoted: view.dispatch({ type: "background_agent", toolCallId: agent.toolCallId }).length > 0 };
    },
    "session.tasks.promoteCurrentToBackground": (link, params) => {
      const view = session(link, params);
      const agent = promotable(view);
      if (!agent || view.dispatch({ type: "background_agent", toolCallId: agent.toolCallId }).length === 0) return {};
      return { task: taskInfo({ ...agent, background: true }) };
    },
    "session.tasks.cancel": (link, params) => {
      const view = session(link, params);
      const agent = find(view, idSchema.parse(params).id);
      return { cancelled: agent !== undefined && view.dispatch({ type: "cancel_agent", agentId: idOf(agent) }) };
    },
    // An agent's record stays with the session (its transcript is part of it): nothing is removed.
    "session.tasks.remove": (link, params) => {
      session(link, params);
      return { removed: false };
    },
    "session.tasks.sendMessage": (link, params) => {
      const { id, message } = messageSchema.parse(params);
      const view = session(link, params);
      const agent = find(view, id);
      if (!agent) return { sent: false, error: `No task with id ${id}.` };
      const refused = view.dispatch({ type: "message_agent", agentId: idOf(agent), message });
      return refused ? { sent: false, error: refused } : { sent: true };
    },
    // Agents start from the model's task tool; an application asks the model for one (session.send).
    "session.tasks.startAgent": (link, params) => {
      const { agentType, model } = startSchema.parse(params);
      const view = session(link, params);
      if (!view.agentDefinitions().some((agent) => agent.name === agentType)) {
        throw new Error(
          `Unknown agent type: ${agentType}. Available: ${view
            .agentDefinitions()
            .map((agent) => agent.name)
            .join(", ")}`,
        );
      }
      throw new Error(
        `session.tasks.startAgent is not supported by agent${model ? ` (model ${model})` : ""}: background agents start from the model's task tool; send a prompt asking for one.`,
      );
    },
  };
}

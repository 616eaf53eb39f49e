/**
 * Custom agent selection and the conversation's history over the SDK: the agent list and the selected agent
 * are read from the session, a selection is the select_agent command (as /agent sends it), a compaction the
 * compact command (as /compact sends it).
 */
import { z } from "zod";
import { onFirstUse } from "../../provider/plain-fields.js";
import type { AgentDefinition } from "../../core/index.js";
import type { AGENT_METHODS } from "./method-names.js";
import { ownedSession, type MethodTable, type Owned } from "./owned-session.js";
import { sessionIdOf } from "../wire.js";

/** Built when one of these methods is first called: none is part of an SDK application's first exchange. */
const schemas = onFirstUse(() => ({
  list: z.looseObject({ sessionId: z.string(), includeBuiltInAgents: z.boolean().optional(), includePrompt: z.boolean().optional() }),
  select: z.looseObject({ sessionId: z.string(), name: z.string() }),
}));

/** An agent as Copilot's AgentInfo describes it. */
export function agentInfo(agent: AgentDefinition, withPrompt = false) {
  return {
    name: agent.name,
    id: agent.name,
    displayName: agent.displayName,
    description: agent.description,
    source: agent.source === "repo" ? "project" : agent.source,
    userInvocable: agent.userInvocable,
    ...(agent.tools ? { tools: [...agent.tools] } : {}),
    ...(agent.model ? { model: agent.model } : {}),
    ...(agent.mcpServers ? { mcpServers: agent.mcpServers } : {}),
    ...(withPrompt ? { prompt: agent.systemPrompt } : {}),
  };
}

export function agentMethods(owned: Owned): MethodTable<(typeof AGENT_METHODS)[number]> {
  /** Custom agents only, unless the built-ins are asked for too (Copilot's default). */
  const listed = (agents: readonly AgentDefinition[], builtIns = false, withPrompt = false) => ({
    agents: agents.filter((agent) => builtIns || agent.source !== "builtin").map((agent) => agentInfo(agent, withPrompt)),
  });
  return {
    "session.agent.list": (link, params) => {
      const { sessionId, includeBuiltInAgents, includePrompt } = schemas().list.parse(params);
      return listed(ownedSession(owned, link, sessionId).agentDefinitions(), includeBuiltInAgents, includePrompt);
    },
    "session.agent.getCurrent": (link, params) => {
      const session = ownedSession(owned, link, sessionIdOf(params));
      const name = session.state.selectedAgent?.name;
      const current = name === undefined ? undefined : session.agentDefinitions().find((agent) => agent.name === name);
      return { agent: current ? agentInfo(current) : null };
    },
    "session.agent.select": (link, params) => {
      const { sessionId, name } = schemas().select.parse(params);
      const session = ownedSession(owned, link, sessionId);
      const problem = session.dispatch({ type: "select_agent", name });
      if (problem) throw new Error(problem);
      return { agent: agentInfo(session.agentDefinitions().find((agent) => agent.name === name) as AgentDefinition) };
    },
    "session.agent.deselect": (link, params) => {
      ownedSession(owned, link, sessionIdOf(params)).dispatch({ type: "select_agent", name: null });
      return {};
    },
    // The catalog reads the agent files again whenever they changed, so a reload is a fresh list.
    "session.agent.reload": (link, params) => listed(ownedSession(owned, link, sessionIdOf(params)).agentDefinitions()),
    "session.history.compact": async (link, params) => {
      const result = await ownedSession(owned, link, sessionIdOf(params)).dispatch({ type: "compact" });
      const before = result.preCompactionTokens ?? 0;
      return {
        success: result.success,
        tokensRemoved: Math.max(0, before - (result.postCompactionTokens ?? before)),
        messagesRemoved: result.messagesRemoved ?? 0,
      };
    },
    // Compaction here runs in the turn that needs it, never in the background: there is none to cancel.
    "session.history.cancelBackgroundCompaction": (link, params) => {
      ownedSession(owned, link, sessionIdOf(params));
      return { cancelled: false };
    },
  };
}

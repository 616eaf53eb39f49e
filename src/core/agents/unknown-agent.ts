/** What --agent's name is checked with before the engine loads (light: no agent catalog), and /agent too. */
import type { AgentDefinition } from "../../config/agent-files.js";

/** What an unknown agent name is told (/agent, --agent): the names one may use instead. */
export function unknownAgentMessage(name: string, valid: readonly { name: string }[]): string {
  const names = valid.map((agent) => agent.name);
  return `Unknown agent "${name}". ${names.length > 0 ? `Available agents: ${names.join(", ")}.` : "No agents are available."}`;
}

/**
 * The agent a person (or --agent) may run the session as: a user-invocable one, or a hidden built-in by its
 * exact name (the rem-agent, which the detached memory consolidation runs as).
 */
export function selectableAgent(agents: readonly AgentDefinition[], name: string): AgentDefinition | undefined {
  return agents.find((agent) => agent.name === name && (agent.userInvocable || agent.source === "builtin"));
}

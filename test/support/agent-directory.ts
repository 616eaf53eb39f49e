/** Agent definitions for engine tests: the built-in explore agent, and a directory over any list of agents. */
import type { AgentDefinition, AgentDirectory } from "../../src/core/tasks/agent-directory.js";

/** A built-in, model-invocable read-only agent (the real explore agent's shape, with a short prompt). */
export const EXPLORE_AGENT: AgentDefinition = {
  source: "builtin",
  userInvocable: false,
  file: "test",
  name: "explore",
  displayName: "Explore",
  description: "Fast read-only search",
  tools: ["view", "grep", "glob"],
  systemPrompt: "You are the explore agent.",
  modelInvocable: true,
};

export function agentDirectory(agents: readonly AgentDefinition[]): AgentDirectory {
  return {
    list: () => [...agents],
    get: (name) => agents.find((agent) => agent.name === name),
    modelInvocable: () => agents.filter((agent) => agent.modelInvocable),
    userInvocable: () => agents.filter((agent) => agent.userInvocable),
  };
}

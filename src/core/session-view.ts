import type { AgentSession } from "./agent-session.js";

/**
 * What a face may use of a session: commands in (dispatch), events out (subscribe), and the state every
 * event folds into (a readonly snapshot: mode, model, agents, usage, todos…). Beside them only questions the
 * events cannot answer: the endpoint's models, the agents one may select, the instruction files loaded.
 */
export type SessionView = Pick<
  AgentSession,
  | "id"
  | "dir"
  | "state"
  | "selectableAgents"
  | "agentDefinitions"
  | "mcpServers"
  | "directories"
  | "instructionPaths"
  | "currentTools"
  | "contextAttribution"
  | "heaviestMessages"
  | "listModels"
  | "subscribe"
  | "dispatch"
  | "whenEnded"
>;

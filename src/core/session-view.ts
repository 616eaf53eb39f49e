import type { AgentSession } from "./agent-session.js";

/** What a face may use of a session: commands in, events out, and a few read-only facts. */
export type SessionView = Pick<
  AgentSession,
  | "id"
  | "cwd"
  | "mode"
  | "model"
  | "agentName"
  | "selectableAgents"
  | "busy"
  | "allowAll"
  | "permissionSummary"
  | "hasConversation"
  | "instructionPaths"
  | "listModels"
  | "todos"
  | "agentRecords"
  | "backgroundShells"
  | "subscribe"
  | "dispatch"
>;

/** The agents the `task` tool can start, as the tool sees them: the session's agent catalog. */
import type { AgentCatalog } from "../agents/agent-catalog.js";

export type { AgentDefinition } from "../agents/agent-catalog.js";

export type AgentDirectory = Pick<AgentCatalog, "list" | "get" | "modelInvocable" | "userInvocable">;

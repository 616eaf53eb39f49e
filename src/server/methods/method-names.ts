/**
 * The names of the method families served from src/server/methods (one block each), kept apart from their
 * handlers so the AgentServer can register them at the handshake without loading the engine's side.
 */

/** Custom agent selection and the conversation's history (agent-methods.ts). */
export const AGENT_METHODS = [
  "session.agent.list",
  "session.agent.getCurrent",
  "session.agent.select",
  "session.agent.deselect",
  "session.agent.reload",
  "session.history.compact",
  "session.history.cancelBackgroundCompaction",
] as const;

/** A session's MCP servers, read and stopped one by one (mcp-methods.ts). */
export const MCP_SESSION_METHODS = [
  "session.mcp.list",
  "session.mcp.listTools",
  "session.mcp.isServerRunning",
  "session.mcp.stopServer",
  "session.mcp.setEnvValueMode",
  "session.mcp.removeGitHub",
] as const;

/** What MCP offers that agent does not (sign-in, sampling for a client, MCP Apps), refused with the reason (mcp-unavailable-methods.ts). */
export const MCP_UNAVAILABLE_METHODS = [
  "session.mcp.oauth.login",
  "session.mcp.executeSampling",
  "session.mcp.cancelSamplingExecution",
  "session.mcp.apps.diagnose",
  "session.mcp.apps.listTools",
  "session.mcp.apps.callTool",
  "session.mcp.apps.readResource",
] as const;

/** The user's MCP configuration file and discovery, for no session in particular (mcp-config-methods.ts). */
export const MCP_CONFIG_METHODS = [
  "mcp.config.list",
  "mcp.config.add",
  "mcp.config.update",
  "mcp.config.remove",
  "mcp.config.enable",
  "mcp.config.disable",
  "mcp.config.reload",
  "mcp.discover",
] as const;

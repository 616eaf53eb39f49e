/**
 * A session's MCP servers over the SDK: their list, one server's tools and whether it runs are read from the
 * session's MCP manager; stopping one is the stop_mcp_server command (session.mcp_server_status_changed
 * tells it). setEnvValueMode is a command too: how servers started from then on read their `env` values.
 * session.mcp.enable/disable/reload are in session-methods.ts.
 */
import path from "node:path";
import { z } from "zod";
import { onFirstUse } from "../../provider/plain-fields.js";
import type { ServerStatus } from "../../mcp/index.js";
import type { MCP_SESSION_METHODS } from "./method-names.js";
import { ownedSession, type MethodTable, type Owned } from "./owned-session.js";
import { sessionIdOf } from "../wire.js";

/** Built when one of these methods is first called: none is part of an SDK application's first exchange. */
const schemas = onFirstUse(() => ({
  server: z.looseObject({ sessionId: z.string(), serverName: z.string() }),
  envMode: z.looseObject({ sessionId: z.string(), mode: z.enum(["direct", "indirect"]) }),
}));

/** Where a server was configured, in Copilot's words: the user's configuration file, or the repository's. */
function sourceOf(source: string): "user" | "workspace" | undefined {
  const file = path.basename(source);
  if (file === "mcp-config.json") return "user";
  return file === ".mcp.json" || file === "mcp.json" ? "workspace" : undefined;
}

function listed(server: ServerStatus) {
  const source = sourceOf(server.source);
  return {
    name: server.name,
    status: server.state === "starting" ? "pending" : server.state,
    ...(source ? { source } : {}),
    ...(server.error ? { error: server.error } : {}),
  };
}

export function mcpMethods(owned: Owned): MethodTable<(typeof MCP_SESSION_METHODS)[number]> {
  return {
    "session.mcp.list": (link, params) => ({
      servers: (ownedSession(owned, link, sessionIdOf(params)).mcpServers()?.servers ?? []).map(listed),
    }),
    "session.mcp.listTools": (link, params) => {
      const { sessionId, serverName } = schemas().server.parse(params);
      const tools = ownedSession(owned, link, sessionId).mcpServers()?.toolsOf(serverName);
      if (!tools) throw new Error(`MCP server ${serverName} is not connected.`);
      return { tools };
    },
    "session.mcp.isServerRunning": (link, params) => {
      const { sessionId, serverName } = schemas().server.parse(params);
      return { running: ownedSession(owned, link, sessionId).mcpServers()?.running(serverName) === true };
    },
    "session.mcp.stopServer": async (link, params) => {
      const { sessionId, serverName } = schemas().server.parse(params);
      const problem = await ownedSession(owned, link, sessionId).dispatch({ type: "stop_mcp_server", server: serverName });
      if (problem) throw new Error(problem);
      return {};
    },
    "session.mcp.setEnvValueMode": (link, params) => {
      const { sessionId, mode } = schemas().envMode.parse(params);
      return { mode: ownedSession(owned, link, sessionId).dispatch({ type: "set_mcp_env_value_mode", mode }) };
    },
    // agent adds no GitHub MCP server of its own (a "github" server is one the user or client configured): none to remove.
    "session.mcp.removeGitHub": (link, params) => {
      ownedSession(owned, link, sessionIdOf(params));
      return { removed: false };
    },
  };
}

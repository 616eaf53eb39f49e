/**
 * What MCP offers that agent does not have: OAuth sign-in (a remote server's token goes in its `headers`),
 * sampling run for a client, and MCP Apps (agent does not advertise the mcp-apps capability to servers).
 * Each method answers as Copilot does where the feature is unavailable: a clear error, or a failure result,
 * after the checks Copilot makes first (no such server, not a remote one).
 */
import { z } from "zod";
import { onFirstUse } from "../../provider/plain-fields.js";
import type { MCP_UNAVAILABLE_METHODS } from "./method-names.js";
import { ownedSession, type MethodTable, type Owned } from "./owned-session.js";
import { sessionIdOf } from "../wire.js";

/** Built when one of these methods is first called: none is part of an SDK application's first exchange. */
const schemas = onFirstUse(() => ({
  server: z.looseObject({ sessionId: z.string(), serverName: z.string() }),
}));

const NO_APPS = "MCP Apps are not available in this session: agent does not offer the mcp-apps capability to MCP servers";

export function mcpUnavailableMethods(owned: Owned): MethodTable<(typeof MCP_UNAVAILABLE_METHODS)[number]> {
  const apps = (link: Parameters<Owned>[0], params: unknown, what: string) => {
    ownedSession(owned, link, sessionIdOf(params));
    throw new Error(`${NO_APPS} (${what}).`);
  };
  return {
    "session.mcp.oauth.login": (link, params) => {
      const { sessionId, serverName } = schemas().server.parse(params);
      const mcp = ownedSession(owned, link, sessionId).mcpServers();
      if (!mcp) throw new Error("MCP host is not available: no MCP servers are configured for this session.");
      const server = mcp.servers.find((candidate) => candidate.name === serverName);
      if (!server) throw new Error(`MCP server ${serverName} is not configured for this session.`);
      if (server.transport === "stdio") throw new Error(`MCP server ${serverName} is not a remote server: only http and sse servers sign in.`);
      throw new Error(`MCP server ${serverName}: agent does not sign in to MCP servers with OAuth; give the server's token in its "headers" instead.`);
    },
    "session.mcp.executeSampling": (link, params) => {
      ownedSession(owned, link, sessionIdOf(params));
      return { action: "failure", error: "MCP sampling requests are not run for clients by agent: its MCP client does not offer sampling to servers." };
    },
    // No sampling request ever runs, so none can be cancelled.
    "session.mcp.cancelSamplingExecution": (link, params) => {
      ownedSession(owned, link, sessionIdOf(params));
      return { cancelled: false };
    },
    "session.mcp.apps.diagnose": (link, params) => {
      const { sessionId, serverName } = schemas().server.parse(params);
      const mcp = ownedSession(owned, link, sessionId).mcpServers();
      const tools = mcp?.toolsOf(serverName) ?? [];
      const withUi = tools.filter((tool) => tool.ui !== undefined);
      return {
        capability: { sessionHasMcpApps: false, featureFlagEnabled: false, advertised: false },
        server: {
          connected: mcp?.running(serverName) === true,
          toolCount: tools.length,
          toolsWithUiMeta: withUi.length,
          sampleToolNames: withUi.slice(0, 5).map((tool) => tool.name),
        },
      };
    },
    "session.mcp.apps.listTools": (link, params) => apps(link, params, "no app may list a server's tools"),
    "session.mcp.apps.callTool": (link, params) => apps(link, params, "no app may call a server's tool"),
    "session.mcp.apps.readResource": (link, params) => apps(link, params, "no app resource can be read"),
  };
}

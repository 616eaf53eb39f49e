/** What the engine needs of MCP: the manager over a session's configured servers. */
import { agentMcpConfig, loadMcpConfig, type McpSources } from "./mcp-config.js";
import { McpManager, type McpManagerOptions } from "./mcp-manager.js";
import { ToolCache, toolCacheDir } from "./tool-cache.js";

export { McpManager, type McpChange, type ServerStatus } from "./mcp-manager.js";
export type { McpSources } from "./mcp-config.js";
export type { EnvValueMode } from "./expand-env.js";
export { inSeconds, type ElicitationAsk } from "./mcp-connection.js";
export type { McpTaskHost } from "./mcp-tool.js";

/** The session's MCP options from the command line. */
export interface McpSessionOptions {
  additional?: readonly string[];
  disabled?: readonly string[];
  secretEnvVars?: readonly string[];
  /** --allow-all-mcp-server-instructions: servers' `instructions` go into the system prompt. */
  allowAllInstructions?: boolean;
}

/**
 * The manager for a session, or undefined when no server is configured anywhere (then nothing of the SDK
 * is ever loaded). Servers are not started yet: the session calls start() once it has announced itself.
 */
export function createMcpManager(sources: McpSources, options: Omit<McpManagerOptions, "load" | "cache">): McpManager | undefined {
  let first: ReturnType<typeof loadMcpConfig> | undefined = loadMcpConfig(sources);
  if (first.servers.length === 0 && first.problems.length === 0) return undefined;
  const load = () => {
    const loaded = first ?? loadMcpConfig(sources);
    first = undefined;
    return loaded;
  };
  return new McpManager({ ...options, load, cache: new ToolCache(toolCacheDir(sources.agentHome)) });
}

/**
 * The manager of one custom agent's own servers (`mcp-servers` in its file), or undefined when it names none.
 * Its tool lists are cached like the session's; `disabled` are --disable-mcp-server's names.
 */
export function createAgentMcpManager(
  agentName: string,
  servers: Record<string, unknown>,
  options: Omit<McpManagerOptions, "load" | "cache"> & { agentHome: string; disabled?: readonly string[] },
): McpManager | undefined {
  const { agentHome, disabled, ...rest } = options;
  const loaded = agentMcpConfig(agentName, servers, disabled);
  if (loaded.servers.length === 0 && loaded.problems.length === 0) return undefined;
  return new McpManager({ ...rest, load: () => agentMcpConfig(agentName, servers, disabled), cache: new ToolCache(toolCacheDir(agentHome)) });
}

/**
 * --available-tools and --excluded-tools may name every tool the model can be offered: the built-in ones, the
 * subagent tools (task, read_agent, write_agent, list_agents) and MCP tools, by their full name
 * (`server-tool`) or Copilot's `server/tool` and `server/*`; `*` is every tool. A name that matches none of
 * these is most likely a typo: it gets a warning naming the tools there are, and the run goes on (an MCP
 * server's tools are only known once it has started, so a name cannot be refused outright).
 */
import { KNOWN_TOOL_NAMES } from "../config/agent-tool-aliases.js";
import { mcpToolName } from "../mcp/mcp-tool.js";
import type { McpSessionOptions } from "../mcp/index.js";
import { configuredServerNames } from "./check-mcp-flags.js";

export interface ToolFlags {
  availableTools?: readonly string[];
  excludedTools?: readonly string[];
}

export function toolFlagWarnings(flags: ToolFlags, mcp: McpSessionOptions | undefined, cwd: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const given = [
    ...(flags.availableTools ?? []).map((name) => ({ flag: "--available-tools", name })),
    ...(flags.excludedTools ?? []).map((name) => ({ flag: "--excluded-tools", name })),
  ];
  const unknown = given.filter(({ name }) => name !== "*" && !KNOWN_TOOL_NAMES.includes(name));
  if (unknown.length === 0) return [];
  // Reading the MCP configuration (and agent files) only when a name is not a built-in tool's.
  const servers = [...configuredServerNames(mcp?.additional ?? [], cwd, env)];
  const isMcpTool = (name: string) => servers.some((server) => name.startsWith(`${server}/`) || name.startsWith(mcpToolName(server, "")));
  const known = `tools: ${KNOWN_TOOL_NAMES.join(", ")}${servers.length > 0 ? `, and the tools of the MCP servers ${servers.join(", ")} (server-tool or server/tool)` : ""}`;
  return unknown.filter(({ name }) => !isMcpTool(name)).map(({ flag, name }) => `${flag} ${name}: no such tool, ignored (${known})`);
}

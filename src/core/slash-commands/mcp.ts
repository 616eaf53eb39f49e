/**
 * `/mcp [list|show NAME|enable NAME|disable NAME|reload]`: the session's MCP servers, their state and tools.
 * Enable, disable and reload are session commands (core/mcp-commands.ts), told by events.
 */
import type { ServerStatus } from "../../mcp/index.js";
import { NO_SERVERS, unknownServer } from "../mcp-commands.js";
import type { SlashCommand, SlashCommandResult } from "./types.js";

function line(server: ServerStatus): string {
  const count = `${server.tools.length} tool${server.tools.length === 1 ? "" : "s"}`;
  // A server still starting with its tools known from its last run already offers them.
  const detail =
    server.state === "connected" ? count : server.state === "starting" && server.tools.length > 0 ? `starting · ${count} (from its last run)` : server.state;
  return `  ${server.name} (${server.transport}) · ${detail}${server.error ? ` · ${server.error}` : ""}`;
}

function show(server: ServerStatus): string {
  return [
    `${server.name} (${server.transport}) · ${server.state}`,
    `  ${server.transport === "stdio" ? "command" : "url"}: ${server.target}`,
    `  configured in: ${server.source}`,
    ...(server.error ? [`  error: ${server.error}`] : []),
    `  tools: ${server.tools.length > 0 ? server.tools.join(", ") : "(none)"}`,
    ...(server.stderrTail.length > 0 ? ["  stderr (last lines):", ...server.stderrTail.map((text) => `    ${text}`)] : []),
  ].join("\n");
}

export const mcpCommand: SlashCommand = {
  name: "mcp",
  description: "Show the MCP servers and their tools; enable, disable or reload them",
  argsHint: "[list|show|enable|disable|reload] [server]",
  run: async ({ session, args }): Promise<SlashCommandResult> => {
    const mcp = session.mcp;
    const [verb = "list", name] = args.split(/\s+/).filter(Boolean);
    if (!mcp) return { kind: "message", text: NO_SERVERS };
    const refused = (problem: string | undefined): SlashCommandResult | undefined => (problem ? { kind: "message", level: "error", text: problem } : undefined);
    switch (verb) {
      case "list": {
        const servers = mcp.list();
        return { kind: "message", text: servers.length === 0 ? "No MCP servers are configured." : ["MCP servers:", ...servers.map(line)].join("\n") };
      }
      case "show": {
        if (!name) return { kind: "message", level: "error", text: "Usage: /mcp show <server>" };
        const server = mcp.list().find((candidate) => candidate.name === name);
        return server ? { kind: "message", text: show(server) } : { kind: "message", level: "error", text: unknownServer(name, mcp.list()) };
      }
      case "enable":
      case "disable": {
        if (!name) return { kind: "message", level: "error", text: `Usage: /mcp ${verb} <server>` };
        // A command like any other change: an SDK client's session.mcp.enable/disable sends the same one.
        const problem = await session.dispatch({ type: verb === "enable" ? "enable_mcp_server" : "disable_mcp_server", server: name });
        return refused(problem) ?? { kind: "message", text: `MCP server ${name} ${verb}d for this session.` };
      }
      case "reload": {
        const problem = await session.dispatch({ type: "reload_mcp_servers" });
        return (
          refused(problem) ?? {
            kind: "message",
            text: `MCP servers reloaded: ${mcp.list().filter((server) => server.state === "connected").length} of ${mcp.list().length} connected.`,
          }
        );
      }
      default:
        return { kind: "message", level: "error", text: `Unknown /mcp subcommand "${verb}". Use list, show, enable, disable or reload.` };
    }
  },
};

/** `/mcp [list|show NAME|enable NAME|disable NAME|reload]`: the session's MCP servers, their state and tools. */
import type { ServerStatus } from "../../mcp/index.js";
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
    if (!mcp)
      return {
        kind: "message",
        text: "No MCP servers are configured. Add one with: agent mcp add NAME -- COMMAND ARGS (or edit mcp-config.json in the agent's home).",
      };
    const needName = (): SlashCommandResult | undefined => {
      if (!name) return { kind: "message", level: "error", text: `Usage: /mcp ${verb} <server>` };
      if (!mcp.has(name))
        return {
          kind: "message",
          level: "error",
          text: `There is no MCP server named ${name}. Servers: ${
            mcp
              .list()
              .map((server) => server.name)
              .join(", ") || "(none)"
          }`,
        };
      return undefined;
    };
    switch (verb) {
      case "list": {
        const servers = mcp.list();
        return { kind: "message", text: servers.length === 0 ? "No MCP servers are configured." : ["MCP servers:", ...servers.map(line)].join("\n") };
      }
      case "show": {
        const problem = needName();
        if (problem) return problem;
        return { kind: "message", text: show(mcp.list().find((server) => server.name === name) as ServerStatus) };
      }
      case "enable":
      case "disable": {
        const problem = needName();
        if (problem) return problem;
        if (verb === "disable") await mcp.disable(name as string);
        else mcp.enable(name as string);
        return { kind: "message", text: `MCP server ${name} ${verb}d for this session.` };
      }
      case "reload":
        await mcp.reload();
        await mcp.waitForStartup(5_000, undefined, { cachedToo: true });
        return {
          kind: "message",
          text: `MCP servers reloaded: ${mcp.list().filter((server) => server.state === "connected").length} of ${mcp.list().length} connected.`,
        };
      default:
        return { kind: "message", level: "error", text: `Unknown /mcp subcommand "${verb}". Use list, show, enable, disable or reload.` };
    }
  },
};

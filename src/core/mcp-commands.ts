/**
 * The session's MCP servers as commands and events: enable, disable and reload are commands (the /mcp slash
 * command and an SDK client's session.mcp.* send the same ones), and what the servers do is told as Copilot's
 * events: session.mcp_servers_loaded when the configuration is read (start, reload), then
 * session.mcp_server_status_changed for each change (connected, failed, disabled, started again).
 */
import type { McpChange, McpManager, ServerStatus } from "../mcp/index.js";
import type { CommandResults, SessionCommand } from "../protocol/commands.js";
import type { EventData } from "../protocol/events/index.js";
import type { Emit } from "./event-sink.js";

const MCP_COMMANDS = ["enable_mcp_server", "disable_mcp_server", "stop_mcp_server", "reload_mcp_servers", "set_mcp_env_value_mode"] as const;
export type McpCommand = Extract<SessionCommand, { type: (typeof MCP_COMMANDS)[number] }>;

export function isMcpCommand(command: SessionCommand): command is McpCommand {
  return (MCP_COMMANDS as readonly string[]).includes(command.type);
}

type Status = EventData<"session.mcp_server_status_changed">["status"];

/** A server's state in Copilot's words. */
function statusOf(state: ServerStatus["state"]): Status {
  return state === "starting" ? "pending" : state;
}

/** How long a reload waits for its servers before it is done (the ones still starting join later). */
const RELOAD_WAIT_MS = 5_000;

export class SessionMcpServers {
  constructor(
    private readonly mcp: McpManager | undefined,
    emit: Emit,
  ) {
    mcp?.watch((change: McpChange) => {
      if (change.kind === "loaded") {
        emit("session.mcp_servers_loaded", {
          servers: change.servers.map((server) => ({
            name: server.name,
            status: statusOf(server.state),
            source: server.source,
            transport: server.transport,
            ...(server.error ? { error: server.error } : {}),
          })),
        });
      } else {
        emit("session.mcp_server_status_changed", {
          serverName: change.name,
          status: statusOf(change.state),
          ...(change.error ? { error: change.error } : {}),
        });
      }
    });
  }

  handle<C extends McpCommand>(command: C): CommandResults[C["type"]];
  handle(command: McpCommand): CommandResults[McpCommand["type"]] {
    switch (command.type) {
      case "enable_mcp_server":
        return this.withServer(command.server, (mcp) => mcp.enable(command.server));
      case "disable_mcp_server":
        return this.withServer(command.server, (mcp) => mcp.disable(command.server));
      case "stop_mcp_server":
        return this.withServer(command.server, (mcp) => mcp.disable(command.server, "stopped"));
      case "reload_mcp_servers":
        return this.reload();
      case "set_mcp_env_value_mode":
        this.mcp?.setEnvValueMode(command.mode);
        return command.mode;
    }
  }

  private async withServer(name: string, change: (mcp: McpManager) => void | Promise<void>): Promise<string | undefined> {
    const mcp = this.mcp;
    if (!mcp) return NO_SERVERS;
    if (!mcp.has(name)) return unknownServer(name, mcp.list());
    await change(mcp);
    return undefined;
  }

  private async reload(): Promise<string | undefined> {
    if (!this.mcp) return NO_SERVERS;
    await this.mcp.reload();
    await this.mcp.waitForStartup(RELOAD_WAIT_MS, undefined, { cachedToo: true });
    return undefined;
  }
}

export const NO_SERVERS = "No MCP servers are configured. Add one with: agent mcp add NAME -- COMMAND ARGS (or edit mcp-config.json in the agent's home).";

export function unknownServer(name: string, servers: readonly ServerStatus[]): string {
  return `There is no MCP server named ${name}. Servers: ${servers.map((server) => server.name).join(", ") || "(none)"}`;
}

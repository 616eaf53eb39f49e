/**
 * The MCP servers a client names in `session/new` / `session/load`, in our configuration format, added to the
 * session's other MCP sources the way `--additional-mcp-config` adds them.
 */
import type { McpServer } from "@agentclientprotocol/sdk";

const record = (pairs: readonly { name: string; value: string }[]): Record<string, string> => Object.fromEntries(pairs.map(({ name, value }) => [name, value]));

/** One JSON document (`{"mcpServers": {...}}`), or undefined when the client named none. */
export function mcpConfigOf(servers: readonly McpServer[] | undefined): string | undefined {
  if (!servers || servers.length === 0) return undefined;
  const entries = servers.map((server) => {
    if ("type" in server && (server.type === "http" || server.type === "sse")) {
      return [server.name, { type: server.type, url: server.url, headers: record(server.headers), tools: ["*"] }] as const;
    }
    const stdio = server as Extract<McpServer, { command: string }>;
    return [stdio.name, { type: "stdio", command: stdio.command, args: stdio.args, env: record(stdio.env), tools: ["*"] }] as const;
  });
  return JSON.stringify({ mcpServers: Object.fromEntries(entries) });
}

/** Configuration of the test MCP server (test/support/mcp-test-server.ts) for the MCP tests. */
import path from "node:path";

export const SERVER_SCRIPT = path.resolve("test/support/mcp-test-server.ts");
/** tsx is resolved from the repository, so the server runs there whatever the session's directory. */
export const REPO_ROOT = path.resolve(".");

export function stdioServer(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: "local", command: process.execPath, args: ["--import", "tsx", SERVER_SCRIPT, "--stdio"], cwd: REPO_ROOT, tools: ["*"], ...extra };
}

export function mcpConfig(servers: Record<string, Record<string, unknown>>): string {
  return JSON.stringify({ mcpServers: servers });
}

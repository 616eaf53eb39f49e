// A minimal stdio MCP server for the bench (one tool, never called): what a configured but unused server costs.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "bench", version: "1.0.0" });
server.registerTool("noop", { description: "Does nothing" }, async () => ({ content: [{ type: "text", text: "ok" }] }));
await server.connect(new StdioServerTransport());

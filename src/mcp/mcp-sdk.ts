/**
 * The MCP SDK's modules the client uses, each loaded at its first use, in one place: a `-p` run's script
 * (dist/chunks/program.cjs) takes them from the code-cached dist/vendor-tools.cjs, so their ~130 KB of source is not
 * in memory in every run, with or without MCP servers (scripts/build.mjs, docs/benchmarks.md).
 */
type Client = typeof import("@modelcontextprotocol/sdk/client/index.js");
type Types = typeof import("@modelcontextprotocol/sdk/types.js");
type Sse = typeof import("@modelcontextprotocol/sdk/client/sse.js");
type StreamableHttp = typeof import("@modelcontextprotocol/sdk/client/streamableHttp.js");
type Stdio = typeof import("@modelcontextprotocol/sdk/shared/stdio.js");

// Only these names: the bundle serves no others (onlyNames in scripts/build.mjs).
export const mcpSdk = {
  client: (): Promise<Pick<Client, "Client">> => import("@modelcontextprotocol/sdk/client/index.js"),
  types: (): Promise<Pick<Types, "ElicitRequestSchema">> => import("@modelcontextprotocol/sdk/types.js"),
  sse: (): Promise<Pick<Sse, "SSEClientTransport">> => import("@modelcontextprotocol/sdk/client/sse.js"),
  streamableHttp: (): Promise<Pick<StreamableHttp, "StreamableHTTPClientTransport">> => import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
  stdio: (): Promise<Pick<Stdio, "ReadBuffer" | "serializeMessage">> => import("@modelcontextprotocol/sdk/shared/stdio.js"),
};

/**
 * The MCP SDK's modules the client uses, each loaded at its first use. One seam for them, so that a `-p` run's script
 * (dist/chunks/program.cjs) can leave the SDK to the ES module build, whose entry dist/mcp-sdk.js this module is: its
 * ~130 KB of source would otherwise stay in memory for every run, with or without MCP servers (scripts/build.mjs,
 * docs/benchmarks.md).
 */
export const mcpSdk = {
  client: () => import("@modelcontextprotocol/sdk/client/index.js"),
  types: () => import("@modelcontextprotocol/sdk/types.js"),
  sse: () => import("@modelcontextprotocol/sdk/client/sse.js"),
  streamableHttp: () => import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
  stdio: () => import("@modelcontextprotocol/sdk/shared/stdio.js"),
};

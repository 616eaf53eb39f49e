// A stdio MCP server in plain Node, with no packages at all: newline-delimited JSON-RPC on stdin/stdout,
// answering initialize, ping, tools/list and tools/call for one tool (echo_text). The packed-install test
// copies it out of the checkout, so what connects to it is the installed agent's own bundled MCP client.
// With PLAIN_MCP_STUBBORN=<file> it writes its pid there, notes each SIGTERM (" term <ms since epoch>") and
// keeps running: a server that shrugs off SIGTERM.
import { appendFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";

const stubborn = process.env.PLAIN_MCP_STUBBORN;
if (stubborn) {
  writeFileSync(stubborn, String(process.pid));
  process.on("SIGTERM", () => appendFileSync(stubborn, ` term ${Date.now()}`));
  setInterval(() => {}, 1000);
}

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);

const echoText = {
  name: "echo_text",
  description: "Echoes the text back",
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  annotations: { readOnlyHint: true },
};

function answer(method, params) {
  switch (method) {
    case "initialize":
      return { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "plain", version: "1.0.0" } };
    case "ping":
      return {};
    case "tools/list":
      return { tools: [echoText] };
    case "tools/call":
      if (params.name !== "echo_text") return undefined;
      return { content: [{ type: "text", text: `plain echo: ${params.arguments?.text ?? ""}` }] };
    default:
      return undefined;
  }
}

createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim() === "") return;
  const message = JSON.parse(line);
  if (message.id === undefined) return; // a notification (initialized, cancelled): nothing to answer
  const result = answer(message.method, message.params ?? {});
  if (result) send({ id: message.id, result });
  else send({ id: message.id, error: { code: -32601, message: `no such method or tool: ${message.method}` } });
});

// A minimal ACP client: starts `agent --acp`, opens a session in the current directory, sends one prompt,
// prints the answer as it streams, and asks you (on the terminal) before every tool call the agent wants to make.
//
//   npm install @agentclientprotocol/sdk
//   node acp-client.mjs "What does this project do?"            # uses `agent` from your PATH
//   AGENT_BIN=/path/to/bin/agent.js node acp-client.mjs "…"     # or a given build
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { Readable, Writable } from "node:stream";
import { client, ndJsonStream, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";

const prompt = process.argv.slice(2).join(" ") || "Hello!";
const bin = process.env.AGENT_BIN;
const agent = spawn(bin ? process.execPath : "agent", [...(bin ? [bin] : []), "--acp"], { stdio: ["pipe", "pipe", "inherit"] });
// Your answers, one per line (typed, or piped in); read as they are needed.
const terminal = createInterface({ input: process.stdin });
const answers = terminal[Symbol.asyncIterator]();

const app = client({ name: "acp-client-example" })
  .onNotification("session/update", ({ params: { update } }) => {
    if (update.sessionUpdate === "agent_message_chunk" && update.content.type === "text") process.stdout.write(update.content.text);
    if (update.sessionUpdate === "tool_call") process.stderr.write(`\n[tool] ${update.title} (${update.kind})\n`);
    if (update.sessionUpdate === "tool_call_update" && update.status) process.stderr.write(`[tool] ${update.toolCallId}: ${update.status}\n`);
    if (update.sessionUpdate === "plan") process.stderr.write(`[plan] ${update.entries.map((entry) => `${entry.status}: ${entry.content}`).join("; ")}\n`);
  })
  .onRequest("session/request_permission", async ({ params }) => {
    const choices = params.options.map((option, index) => `${index + 1}) ${option.name}`).join("  ");
    process.stderr.write(`\n[permission] ${params.toolCall.title}\n${choices}\n> `);
    const { value: answer } = await answers.next();
    const option = params.options[Number(answer) - 1];
    return option ? { outcome: { outcome: "selected", optionId: option.optionId } } : { outcome: { outcome: "cancelled" } };
  });

const connection = app.connect(ndJsonStream(Writable.toWeb(agent.stdin), Readable.toWeb(agent.stdout)));
const { agentInfo } = await connection.agent.request("initialize", { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
process.stderr.write(`[connected to ${agentInfo?.name} ${agentInfo?.version}]\n`);
const { sessionId } = await connection.agent.request("session/new", { cwd: process.cwd(), mcpServers: [] });
// Ctrl-C cancels the prompt instead of killing everything.
process.on("SIGINT", () => void connection.agent.notify("session/cancel", { sessionId }));
const { stopReason } = await connection.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: prompt }] });
process.stderr.write(`\n[${stopReason}; resume later with: agent --resume ${sessionId}]\n`);
terminal.close();
connection.close();
agent.stdin.end();

// An application written for GitHub's Copilot SDK, pointed at `agent` instead of Copilot's runtime: the
// SDK starts bin/agent.js and drives it over JSON-RPC; the model is any OpenAI-compatible endpoint, given
// to the session as a BYOK provider.
//
//   npm install @github/copilot-sdk          # in your application (this repository has it as a dev dependency)
//   OPENAI_BASE_URL=http://localhost:11434/v1 AGENT_MODEL=qwen3-coder node examples/copilot-sdk.mjs "List the files here"
import { fileURLToPath } from "node:url";
import { CopilotClient, RuntimeConnection } from "@github/copilot-sdk";

const agent = fileURLToPath(new URL("../bin/agent.js", import.meta.url));
const client = new CopilotClient({ connection: RuntimeConnection.forStdio({ path: agent }) });

const session = await client.createSession({
  model: process.env.AGENT_MODEL ?? "gpt-4.1",
  provider: { type: "openai", baseUrl: process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1", apiKey: process.env.OPENAI_API_KEY },
  streaming: true,
  // Every command or edit the agent wants to make is put to the application first.
  onPermissionRequest: (request) => {
    console.error(`\n[approving ${request.kind}: ${request.fullCommandText ?? request.fileName ?? request.toolName ?? ""}]`);
    return { kind: "approve-once" };
  },
});
session.on("assistant.message_delta", (event) => process.stdout.write(event.data.deltaContent));
session.on("tool.execution_start", (event) => console.error(`\n[tool ${event.data.toolName}]`));

await session.sendAndWait({ prompt: process.argv[2] ?? "What is in this directory?" }, 120_000);
console.log(`\n\nsession ${session.sessionId} (resume it with: agent --resume ${session.sessionId})`);
await client.stop();

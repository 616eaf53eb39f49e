#!/usr/bin/env node
// A Copilot SDK application for the bench, in its own process (as an application would be): it starts
// bin/agent.js through the real SDK and prints one JSON line of timings. Plain JS, run with node.
//
// Env:
//   SDK_DRIVER_MODE   "start": time client.start() until the handshake is answered, then force-stop.
//                     "long": start, create a BYOK session, sendAndWait the long prompt, stop (process gone).
//   SDK_DRIVER_AGENT  the agent's bin/agent.js
//   SDK_DRIVER_BASE_URL, SDK_DRIVER_PROMPT   the scripted endpoint and the prompt ("long")
//   SDK_DRIVER_TAIL   text the answer must contain ("long")
// Everything else in the environment is passed to the agent (AGENT_HOME).
import { CopilotClient, RuntimeConnection, approveAll } from "@github/copilot-sdk";

const mode = process.env.SDK_DRIVER_MODE ?? "start";
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("SDK_DRIVER_")));
const client = new CopilotClient({ connection: RuntimeConnection.forStdio({ path: process.env.SDK_DRIVER_AGENT, env }), workingDirectory: process.cwd() });

const started = performance.now();
if (mode === "start") {
  await client.start();
  const ms = performance.now() - started;
  await client.forceStop();
  process.stdout.write(`${JSON.stringify({ ms })}\n`);
} else {
  const session = await client.createSession({
    provider: { type: "openai", baseUrl: process.env.SDK_DRIVER_BASE_URL, apiKey: "test" },
    model: "bench-model",
    streaming: true,
    onPermissionRequest: approveAll,
  });
  const answer = await session.sendAndWait({ prompt: process.env.SDK_DRIVER_PROMPT ?? "hello" }, 60_000);
  const answered = performance.now() - started;
  const errors = await client.stop();
  const ms = performance.now() - started;
  const ok = errors.length === 0 && answer?.data.content.includes(process.env.SDK_DRIVER_TAIL ?? "");
  process.stdout.write(`${JSON.stringify({ ms, answered, ok })}\n`);
}

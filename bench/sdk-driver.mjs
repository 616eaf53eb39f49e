#!/usr/bin/env node
// A Copilot SDK application for the bench, in its own process (as an application would be): it starts
// bin/agent.js through the real SDK and prints one JSON line of timings. Plain JS, run with node.
//
// Env:
//   SDK_DRIVER_MODE   "start": time client.start() until the handshake is answered, then force-stop.
//                     "long": start, create a BYOK session, sendAndWait the long prompt, stop (process gone).
//                     "two": one agent server over TCP, two clients on one session (the second resumes the
//                     first's), the long prompt sent by the first: how far behind the first client each
//                     event reaches the second (both in this process, so one clock).
//   SDK_DRIVER_AGENT  the agent's bin/agent.js
//   SDK_DRIVER_BASE_URL, SDK_DRIVER_PROMPT   the scripted endpoint and the prompt ("long")
//   SDK_DRIVER_TAIL   text the answer must contain ("long")
// Everything else in the environment is passed to the agent (AGENT_HOME).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { CopilotClient, RuntimeConnection, approveAll } from "@github/copilot-sdk";

const mode = process.env.SDK_DRIVER_MODE ?? "start";
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("SDK_DRIVER_")));
const provider = { type: "openai", baseUrl: process.env.SDK_DRIVER_BASE_URL, apiKey: "test" };

/** "two": the lag of the second client behind the first, per event both received (ms). */
async function twoClients() {
  const token = randomBytes(16).toString("hex");
  const server = spawn(process.execPath, [process.env.SDK_DRIVER_AGENT, "--headless", "--no-auto-update", "--port", "0"], {
    env: { ...env, COPILOT_CONNECTION_TOKEN: token },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  const port = await new Promise((resolve, reject) => {
    server.stdout.setEncoding("utf8").on("data", (chunk) => {
      out += chunk;
      const match = /listening on port (\d+)/i.exec(out);
      if (match) resolve(Number(match[1]));
    });
    server.on("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  const connect = () => new CopilotClient({ connection: RuntimeConnection.forUri(`127.0.0.1:${port}`, { connectionToken: token }) });
  const [first, second] = [connect(), connect()];
  const config = { provider, model: "bench-model", streaming: true, onPermissionRequest: approveAll };
  const a = await first.createSession(config);
  const b = await second.resumeSession(a.sessionId, config);
  const seen = [new Map(), new Map()];
  let secondDone;
  const secondIdle = new Promise((resolve) => (secondDone = resolve));
  // Events by id; streamed deltas (ephemeral, each client's own copy) by their order.
  const deltas = [0, 0];
  const keyOf = (event, client) => (event.type === "assistant.message_delta" ? `delta-${deltas[client]++}` : event.id);
  a.on((event) => seen[0].set(keyOf(event, 0), performance.now()));
  b.on((event) => {
    seen[1].set(keyOf(event, 1), performance.now());
    if (event.type === "session.idle") secondDone();
  });
  const answer = await a.sendAndWait({ prompt: process.env.SDK_DRIVER_PROMPT ?? "hello" }, 60_000);
  await secondIdle;
  const lags = [];
  for (const [id, at] of seen[0]) if (seen[1].has(id)) lags.push(seen[1].get(id) - at);
  await Promise.all([first.stop(), second.stop()]);
  server.kill();
  lags.sort((x, y) => x - y);
  const ok = answer?.data.content.includes(process.env.SDK_DRIVER_TAIL ?? "") && lags.length >= 5;
  return { ms: lags[Math.floor(lags.length / 2)], p95: lags[Math.floor(lags.length * 0.95)], events: lags.length, ok };
}

const client = new CopilotClient({ connection: RuntimeConnection.forStdio({ path: process.env.SDK_DRIVER_AGENT, env }), workingDirectory: process.cwd() });

const started = performance.now();
if (mode === "two") {
  process.stdout.write(`${JSON.stringify(await twoClients())}\n`);
} else if (mode === "start") {
  await client.start();
  const ms = performance.now() - started;
  await client.forceStop();
  process.stdout.write(`${JSON.stringify({ ms })}\n`);
} else {
  const session = await client.createSession({
    provider,
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

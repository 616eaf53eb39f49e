#!/usr/bin/env node
// Baseline for the bench: the least a program can do with the `openai` package to perform the same
// exchange as `agent -p`. Plain JS, run with `node bench/baseline-openai.mjs`.
//
// Env:
//   OPENAI_BASE_URL, OPENAI_API_KEY, AGENT_MODEL   where to send requests (as for the agent)
//   BASELINE_MODE   "tool" (default): request 1 with a `view` tool → read the file the model asks for →
//                   request 2 with the tool result → print the final text.
//                   "long": one streamed request, every delta printed as it arrives.
//   BASELINE_PROMPT the user prompt (default "hello")
//   BASELINE_FETCH  "builtin" (default: the client's default, i.e. Node's built-in fetch / undici) or
//                   "node-http": a tiny node:http-based fetch, to show undici's keep-alive exit delay.
import OpenAI from "openai";
import { readFile } from "node:fs/promises";

const mode = process.env.BASELINE_MODE ?? "tool";
const prompt = process.env.BASELINE_PROMPT ?? "hello";
const model = process.env.AGENT_MODEL ?? "bench-model";

/** A minimal fetch over node:http (string bodies, streamed response). Loaded only when asked for. */
async function makeNodeHttpFetch() {
  const http = await import("node:http");
  const { Readable } = await import("node:stream");
  const agent = new http.Agent({ keepAlive: true });
  return (input, init = {}) =>
    new Promise((resolve, reject) => {
      const headers = {};
      new Headers(init.headers).forEach((value, name) => (headers[name] = value));
      const body = typeof init.body === "string" ? Buffer.from(init.body) : undefined;
      if (body) headers["content-length"] = String(body.length);
      const request = http.request(new URL(String(input)), { method: init.method ?? "GET", headers, agent });
      request.on("error", reject);
      request.on("response", (response) => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined) for (const item of [value].flat()) responseHeaders.append(name, item);
        }
        resolve(new Response(Readable.toWeb(response), { status: response.statusCode ?? 0, headers: responseHeaders }));
      });
      request.end(body);
    });
}

const options = { baseURL: process.env.OPENAI_BASE_URL, apiKey: process.env.OPENAI_API_KEY ?? "test" };
if (process.env.BASELINE_FETCH === "node-http") options.fetch = await makeNodeHttpFetch();
const client = new OpenAI(options);

const tools = [
  {
    type: "function",
    function: {
      name: "view",
      description: "Read a file.",
      parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    },
  },
];

/** Stream one request; print content deltas as they arrive; return the content and tool calls. */
async function streamTurn(messages, withTools) {
  const stream = await client.chat.completions.create({
    model,
    messages,
    ...(withTools ? { tools } : {}),
    stream: true,
    stream_options: { include_usage: true },
  });
  let content = "";
  const calls = [];
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta;
    if (!delta) continue;
    if (delta.content) {
      content += delta.content;
      process.stdout.write(delta.content);
    }
    for (const part of delta.tool_calls ?? []) {
      const call = (calls[part.index] ??= { id: "", type: "function", function: { name: "", arguments: "" } });
      if (part.id) call.id = part.id;
      if (part.function?.name) call.function.name += part.function.name;
      if (part.function?.arguments) call.function.arguments += part.function.arguments;
    }
  }
  if (content !== "" && !content.endsWith("\n")) process.stdout.write("\n");
  return { content, calls };
}

const messages = [
  { role: "system", content: "You are a coding agent." },
  { role: "user", content: prompt },
];
const first = await streamTurn(messages, mode === "tool");
if (mode === "tool") {
  messages.push({ role: "assistant", content: first.content || null, tool_calls: first.calls });
  for (const call of first.calls) {
    const { path } = JSON.parse(call.function.arguments);
    const text = await readFile(path, "utf8");
    messages.push({ role: "tool", tool_call_id: call.id, content: text });
  }
  await streamTurn(messages, true);
}

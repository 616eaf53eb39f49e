/**
 * A corpus of malformed responses, each sent by the scripted server through the real openai client and the
 * real engine. Every one ends in an answer or a clear error: never a crash, never a silent success.
 */
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../support/engine-harness.js";
import {
  BOM_FAILED,
  bomAnswered,
  expectClearError,
  expectIdleTimeout,
  KEEP_ALIVES,
  KEPT_ALIVE_HARNESS,
  slowAnswerKeptAlive,
  type WireSamples,
} from "../support/malformed-checks.js";
import { sse, text, toolCall, type ScriptedResponse } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const chunk = (delta: unknown, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta, finish_reason: null }], ...extra });
const hello = chunk({ role: "assistant", content: "Hello" });
const stop = JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
const usage = JSON.stringify({
  id: "c",
  object: "chat.completion.chunk",
  created: 0,
  model: "m",
  choices: [],
  usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
});
const completion = (message: Record<string, unknown>) => ({
  id: "c",
  object: "chat.completion",
  created: 0,
  model: "m",
  choices: [{ index: 0, message: { role: "assistant", ...message }, finish_reason: "stop" }],
  usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
});

const chatSamples: WireSamples = { say: (content) => chunk({ role: "assistant", content }), end: "[DONE]", json: completion({ content: "Hello" }) };

/** Responses with junk around a real answer: the junk is skipped, the answer is "Hello". */
const answered: [string, ScriptedResponse][] = [
  ["a number as a data line", sse("42", hello, stop, "[DONE]")],
  ["null as a data line", sse("null", hello, "[DONE]")],
  ["an array as a data line", sse("[1,2,3]", hello, "[DONE]")],
  ["a string as a data line", sse('"hi"', hello, "[DONE]")],
  ["true as a data line", sse("true", hello, "[DONE]")],
  ["a {} ping", sse("{}", hello, "{}", "[DONE]")],
  ["a data line that is not JSON", sse("not json at all", hello, "[DONE]")],
  ["a chunk without choices", sse(JSON.stringify({ id: "c", object: "chat.completion.chunk" }), hello, "[DONE]")],
  ["choices: null", sse(JSON.stringify({ id: "c", choices: null }), hello, "[DONE]")],
  ["a choice without a delta", sse(JSON.stringify({ id: "c", choices: [{ index: 0, finish_reason: null }] }), hello, "[DONE]")],
  ["delta: null", sse(JSON.stringify({ id: "c", choices: [{ index: 0, delta: null }] }), hello, "[DONE]")],
  ["a choice that is a number", sse(JSON.stringify({ id: "c", choices: [7] }), hello, "[DONE]")],
  ["content that is a number", sse(chunk({ content: 5 }), hello, "[DONE]")],
  ["tool_calls that is not an array", sse(chunk({ tool_calls: "x" }), hello, "[DONE]")],
  ["content: null before the content", sse(chunk({ role: "assistant", content: null }), hello, stop, usage, "[DONE]")],
  [
    "SSE comments and blank data",
    { kind: "raw", body: `: keep-alive\n\ndata: \n\ndata: ${hello}\n\ndata: [DONE]\n\n`, headers: { "content-type": "text/event-stream" } },
  ],
  ["no [DONE] at the end", sse(hello, stop)],
  ["an SSE stream labelled application/json", { kind: "raw", frames: [hello, "[DONE]"], headers: { "content-type": "application/json" } }],
  ["usage without choices", sse(JSON.stringify({ id: "c", usage: { prompt_tokens: 3, completion_tokens: 1 } }), hello, "[DONE]")],
  [
    "a gzip-compressed stream it declares",
    {
      kind: "raw",
      bodyBase64: gzipSync(Buffer.from(`data: ${hello}\n\ndata: [DONE]\n\n`)).toString("base64"),
      headers: { "content-type": "text/event-stream", "content-encoding": "gzip" },
    },
  ],
  ["a non-streamed chat.completion", { kind: "json", body: completion({ content: "Hello" }) }],
  ...bomAnswered(chatSamples),
  [
    "a chat.completion sent as text/event-stream",
    { kind: "raw", body: JSON.stringify(completion({ content: "Hello" })), headers: { "content-type": "text/event-stream" } },
  ],
];

/** Responses with no answer in them, and what the error must say. */
const failed: [string, ScriptedResponse, string, RegExp][] = [
  [
    "a 200 whose JSON body is an error",
    { kind: "json", body: { error: { message: "upstream overloaded", type: "server_error" } } },
    "server",
    /answered 200 with an error: upstream overloaded/,
  ],
  [
    "an HTML page",
    { kind: "raw", body: "<!DOCTYPE html><html><body>Welcome to nginx</body></html>", headers: { "content-type": "text/html" } },
    "invalid_response",
    /HTML page.*OPENAI_BASE_URL/,
  ],
  [
    "gzip bytes nobody declared",
    { kind: "raw", bodyBase64: gzipSync(Buffer.from(`data: ${hello}\n\n`)).toString("base64"), headers: { "content-type": "text/event-stream" } },
    "invalid_response",
    /gzip/,
  ],
  [
    "binary bytes",
    {
      kind: "raw",
      bodyBase64: Buffer.from([0, 1, 2, 3, 255, 254, 0, 7, 8, 0, 1, 2]).toString("base64"),
      headers: { "content-type": "application/octet-stream" },
    },
    "invalid_response",
    /binary data \(12 bytes\)/,
  ],
  ["an empty body", { kind: "raw", body: "", headers: { "content-type": "application/json" } }, "empty_response", /an empty body/],
  ["an empty event stream", { kind: "raw", frames: [] }, "empty_response", /an empty body/],
  ["plain text", { kind: "raw", body: "Bad Gateway", headers: { "content-type": "text/plain" } }, "invalid_response", /text: "Bad Gateway"/],
  ["JSON that is not a completion", { kind: "json", body: { hello: "world" } }, "invalid_response", /JSON that is not a chat completion/],
  ["empty choices", sse(JSON.stringify({ id: "c", choices: [] }), "[DONE]"), "empty_response", /no choices/],
  ["only content: null", sse(chunk({ content: null }), stop, "[DONE]"), "empty_response", /content: null/],
  ["only a role", sse(chunk({ role: "assistant" }), "[DONE]"), "empty_response", /a role/],
  ["only usage", sse(usage, "[DONE]"), "empty_response", /usage/],
  ["only reasoning", sse(chunk({ reasoning_content: "thinking hard" }), stop, "[DONE]"), "empty_response", /reasoning/],
  ["[DONE] first", sse("[DONE]", hello), "empty_response", /only \[DONE\]/],
  ["only whitespace", sse(chunk({ content: "  \n " }), stop, "[DONE]"), "empty_response", /only whitespace/],
  ["only junk data lines", sse("42", "{}", "null"), "empty_response", /3 data lines that were not a chat completion chunk/],
  ["an error inside the stream", sse(hello, JSON.stringify({ error: { message: "boom mid-stream" } })), "server", /error in the stream: boom mid-stream/],
  ["a non-streamed completion with no content", { kind: "json", body: completion({ content: null }) }, "empty_response", /content: null/],
  ...BOM_FAILED,
];

/**
 * Streams that are alive but carry no data: keep-alives (SSE comments, whitespace, blank data lines, pings)
 * do not count toward the idle timeout, so each ends as a timeout that says so, long before the overall limit.
 */
describe("streams kept alive without data", () => {
  it.each(KEEP_ALIVES)("%s: an idle timeout with a clear error", async (_name, keepAlive) => {
    harness = await startHarness(KEPT_ALIVE_HARNESS);
    await expectIdleTimeout(harness, keepAlive);
  });

  it("the same keep-alives before and between data that arrives in time: answered", async () => {
    harness = await startHarness({ retry: { maxRetries: 0 }, streamIdleTimeoutMs: 2_000 });
    harness.server.enqueue(slowAnswerKeptAlive(chatSamples));
    const result = await harness.session.send("hi");
    expect(result.finalMessage).toBe("Hello");
    expect(harness.ofType("session.error")).toEqual([]);
  });
});

describe("malformed responses end in an answer", () => {
  it.each(answered)("%s", async (_name, response) => {
    harness = await startHarness({ retry: { maxRetries: 0 } });
    harness.server.enqueue(response);
    const result = await harness.session.send("hi");
    expect(result.outcome).toBe("completed");
    expect(result.finalMessage).toBe("Hello");
    expect(harness.ofType("session.error")).toEqual([]);
    expect(
      harness
        .ofType("assistant.message_delta")
        .map((event) => event.data.deltaContent)
        .join(""),
    ).toBe("Hello");
  });

  it("shows a refusal as the answer", async () => {
    harness = await startHarness({ retry: { maxRetries: 0 } });
    harness.server.enqueue(sse(chunk({ role: "assistant", content: null, refusal: "I can't help with that." }), stop, "[DONE]"));
    const result = await harness.session.send("hi");
    expect(result.outcome).toBe("completed");
    expect(result.finalMessage).toBe("I can't help with that.");
  });

  it("assembles tool calls whose deltas lack an index", async () => {
    harness = await startHarness({ retry: { maxRetries: 0 }, allowAllTools: true });
    harness.server.enqueue(
      sse(chunk({ tool_calls: [{ id: "t1", type: "function", function: { name: "glob", arguments: '{"pattern":"*.none"}' } }] }), "[DONE]"),
      text("done"),
    );
    const result = await harness.session.send("hi");
    expect(result.finalMessage).toBe("done");
    expect(harness.ofType("tool.execution_start")[0]?.data.arguments).toEqual({ pattern: "*.none" });
  });
});

describe("malformed responses end in a clear error", () => {
  it.each(failed)("%s", async (_name, response, errorType, message) => {
    harness = await startHarness({ retry: { maxRetries: 0 } });
    await expectClearError(harness, response, errorType, message);
  });

  it("retries a response without an answer, and uses the next one", async () => {
    harness = await startHarness();
    harness.server.enqueue(sse(chunk({ role: "assistant" }), "[DONE]"), text("Second try."));
    const result = await harness.session.send("hi");
    expect(result.finalMessage).toBe("Second try.");
    expect(harness.ofType("assistant.turn_retry")[0]?.data.reason).toMatch(/sent no answer/);
  });

  it("does not retry a response cut off by the output limit before any answer", async () => {
    harness = await startHarness();
    const length = JSON.stringify({ id: "c", choices: [{ index: 0, delta: { reasoning_content: "still thinking" }, finish_reason: "length" }] });
    harness.server.enqueue(sse(length, "[DONE]"), text("unused"));
    const result = await harness.session.send("hi");
    expect(result.error?.kind).toBe("invalid_response");
    expect(harness.ofType("session.error")[0]?.data.message).toMatch(/finish_reason "length".*raise provider.maxOutputTokens/);
    expect(harness.server.completionRequests).toHaveLength(1);
  });

  it("does not retry an HTML page: another try cannot differ", async () => {
    harness = await startHarness();
    harness.server.enqueue({ kind: "raw", body: "<html></html>", headers: { "content-type": "text/html" } }, text("unused"));
    const result = await harness.session.send("hi");
    expect(result.error?.kind).toBe("invalid_response");
    expect(harness.server.completionRequests).toHaveLength(1);
  });

  it("stops a stream that never ends at the output limit", async () => {
    harness = await startHarness({ retry: { maxRetries: 0 }, provider: { maxOutputTokens: 100 } });
    harness.server.enqueue({ kind: "raw", frames: [chunk({ role: "assistant", content: "" })], repeat: chunk({ content: " " }) });
    const result = await harness.session.send("hi");
    expect(result.error?.kind).toBe("invalid_response");
    expect(harness.ofType("session.error")[0]?.data.message).toMatch(/kept streaming past the output limit/);
  });

  it("stops a stream that never ends at the overall response time", async () => {
    harness = await startHarness({ retry: { maxRetries: 0 }, provider: { responseTimeoutMs: 300 } });
    harness.server.enqueue({ kind: "raw", frames: [chunk({ role: "assistant", content: "" })], repeat: chunk({ content: "" }) });
    const result = await harness.session.send("hi");
    expect(result.error?.kind).toBe("invalid_response");
    expect(harness.ofType("session.error")[0]?.data.message).toMatch(/still streaming after 0 s|still streaming after/);
  });
});

describe("tool arguments an endpoint should never send", () => {
  const chainOf = (file: string) =>
    readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: string; parentId: string | null; type: string });

  it.each([
    ["nested 100,000 deep", `{"path":${"[".repeat(100_000)}${"]".repeat(100_000)}}`, "arguments_too_deep", /nested more than 64 levels/],
    ["larger than the limit", JSON.stringify({ path: "x".repeat(1_200_000) }), "arguments_too_large", /1200011 characters long/],
  ])("refuses arguments %s with a clear result, and the log stays whole", async (_name, args, code, message) => {
    harness = await startHarness({ retry: { maxRetries: 0 }, provider: { maxOutputTokens: 1_000_000 } });
    harness.server.enqueue(toolCall("view", args, { chunkSize: 50_000 }), text("I will not do that again."));
    const result = await harness.session.send("hi");
    expect(result.finalMessage).toBe("I will not do that again.");
    const complete = harness.ofType("tool.execution_complete")[0];
    expect(complete?.data.error).toMatchObject({ code });
    expect(complete?.data.error?.message).toMatch(message);
    const file = harness.store.eventsFileOf(harness.session.id);
    harness.session.shutdown();
    const events = chainOf(file);
    expect(events.at(-1)?.type).toBe("session.shutdown");
    events.forEach((event, index) => expect(event.parentId).toBe(index === 0 ? null : events[index - 1]?.id));
    expect(readFileSync(file, "utf8").length).toBeLessThan(100_000);
  });
});

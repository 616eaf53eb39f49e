/**
 * The malformed-response corpus (malformed-responses.test.ts) on the Responses and Anthropic wires: the same
 * junk, byte-order marks, bodies that are not streams, streams kept alive without data and streams that never
 * end, with each wire's own frames around them.
 * Every one ends in an answer or a clear error: never a crash, never a silent success.
 */
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
import { sse, text, type ScriptedResponse, type Wire } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A wire's frames for the pieces the corpus is made of. */
interface Frames {
  /** A frame that adds `text` to the answer. */
  say(text: string): string;
  hello: string;
  stop: string;
  reasoning: string;
  whitespace: string;
  /** A whole non-streamed answer saying "Hello". */
  json: Record<string, unknown>;
  /** A piece that adds no text, to repeat forever. */
  idle: string;
  refusal: ScriptedResponse;
  /** Each of the wire's own ways of reporting a failure inside the stream, and the error type it must become. */
  failures: [string, string[], string][];
  /** The wire's own keep-alives, beyond every wire's (KEEP_ALIVES). */
  keepAlives: [string, string][];
}

const j = (value: unknown) => JSON.stringify(value);

const responsesText = (delta: string) => j({ type: "response.output_text.delta", item_id: "m", output_index: 0, content_index: 0, delta });
const anthropicText = (text: string) => j({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } });

const FRAMES: Record<Exclude<Wire, "chat">, Frames> = {
  responses: {
    say: responsesText,
    hello: responsesText("Hello"),
    stop: j({ type: "response.completed", response: { status: "completed", output: [], usage: { input_tokens: 5, output_tokens: 1 } } }),
    reasoning: j({ type: "response.reasoning_summary_text.delta", item_id: "r", output_index: 0, summary_index: 0, delta: "thinking hard" }),
    whitespace: responsesText("  \n "),
    json: { object: "response", status: "completed", output: [{ type: "message", id: "m", content: [{ type: "output_text", text: "Hello" }] }] },
    idle: responsesText(" "),
    refusal: sse(
      j({ type: "response.refusal.delta", item_id: "m", output_index: 0, delta: "I can't help with that." }),
      j({ type: "response.completed", response: { status: "completed", output: [] } }),
    ),
    failures: [
      ["a response.failed event", [j({ type: "response.failed", response: { status: "failed", error: { code: "server_error", message: "boom" } } })], "server"],
      ["an error event naming a rate limit", [j({ type: "error", code: "rate_limit_exceeded", message: "slow down" })], "rate_limit"],
      [
        "a failure that says the context is too long",
        [j({ type: "response.failed", response: { error: { code: "context_length_exceeded", message: "too long" } } })],
        "context_length",
      ],
    ],
    keepAlives: [],
  },
  anthropic: {
    say: anthropicText,
    hello: anthropicText("Hello"),
    stop: j({ type: "message_stop" }),
    reasoning: j({ type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "thinking hard" } }),
    whitespace: anthropicText("  \n "),
    json: { type: "message", role: "assistant", model: "m", content: [{ type: "text", text: "Hello" }], stop_reason: "end_turn" },
    idle: anthropicText(" "),
    refusal: sse(
      j({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "I can't help with that." } }),
      j({ type: "message_delta", delta: { stop_reason: "refusal" } }),
      j({ type: "message_stop" }),
    ),
    failures: [
      ["an overloaded error event", [j({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })], "server"],
      [
        "an error event after some text",
        [
          j({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hel" } }),
          j({ type: "error", error: { type: "api_error", message: "boom" } }),
        ],
        "server",
      ],
    ],
    keepAlives: [
      ["Anthropic ping events only", `event: ping\ndata: ${j({ type: "ping" })}\n\n`],
      ["ping data without an event name", `data: ${j({ type: "ping" })}\n\n`],
    ],
  },
};

describe.each(["responses", "anthropic"] as const)("malformed responses on the %s wire", (wire) => {
  const f = FRAMES[wire];
  const samples: WireSamples = { say: f.say, end: f.stop, json: f.json };
  const answered: [string, ScriptedResponse][] = [
    ["a number as a data line", sse("42", f.hello, f.stop)],
    ["null, an array, a string and true as data lines", sse("null", "[1,2,3]", '"hi"', "true", f.hello, f.stop)],
    ["a {} ping", sse("{}", f.hello, "{}", f.stop)],
    ["a data line that is not JSON", sse("not json at all", f.hello, f.stop)],
    ["an event of a type nobody knows", sse(j({ type: "something.new", x: 1 }), f.hello, f.stop)],
    [
      "SSE comments and blank data",
      { kind: "raw", body: `: keep-alive\n\ndata: \n\ndata: ${f.hello}\n\ndata: ${f.stop}\n\n`, headers: { "content-type": "text/event-stream" } },
    ],
    ["no end event", sse(f.hello)],
    ["a stream labelled application/json", { kind: "raw", frames: [f.hello, f.stop], headers: { "content-type": "application/json" } }],
    [
      "a gzip-compressed stream it declares",
      {
        kind: "raw",
        bodyBase64: gzipSync(Buffer.from(`data: ${f.hello}\n\ndata: ${f.stop}\n\n`)).toString("base64"),
        headers: { "content-type": "text/event-stream", "content-encoding": "gzip" },
      },
    ],
    ["a non-streamed answer", { kind: "json", body: f.json }],
    ["a non-streamed answer sent as text/event-stream", { kind: "raw", body: j(f.json), headers: { "content-type": "text/event-stream" } }],
    ["a ping among the events", sse(j({ type: "ping" }), f.hello, j({ type: "ping" }), f.stop)],
    ...bomAnswered(samples),
  ];

  it.each(answered)("%s ends in the answer", async (_name, response) => {
    harness = await startHarness({ wire, retry: { maxRetries: 0 } });
    harness.server.enqueue(response);
    const result = await harness.session.send("hi");
    expect(result.outcome).toBe("completed");
    expect(result.finalMessage).toBe("Hello");
    expect(harness.ofType("session.error")).toEqual([]);
  });

  const failed: [string, ScriptedResponse, string, RegExp][] = [
    [
      "a 200 whose JSON body is an error",
      { kind: "json", body: { error: { message: "upstream overloaded", type: "server_error" } } },
      "server",
      /answered 200 with an error: upstream overloaded/,
    ],
    ["an HTML page", { kind: "raw", body: "<!DOCTYPE html><html></html>", headers: { "content-type": "text/html" } }, "invalid_response", /HTML page/],
    ["gzip bytes nobody declared", { kind: "raw", bodyBase64: gzipSync(Buffer.from(`data: ${f.hello}\n\n`)).toString("base64") }, "invalid_response", /gzip/],
    ["binary bytes", { kind: "raw", bodyBase64: Buffer.from([0, 1, 2, 3, 255, 254, 0, 7, 8, 0, 1, 2]).toString("base64") }, "invalid_response", /binary data/],
    ["an empty body", { kind: "raw", body: "", headers: { "content-type": "application/json" } }, "empty_response", /an empty body/],
    ["plain text", { kind: "raw", body: "Bad Gateway", headers: { "content-type": "text/plain" } }, "invalid_response", /text: "Bad Gateway"/],
    ["JSON that is not an answer", { kind: "json", body: { hello: "world" } }, "invalid_response", /JSON that is not a/],
    ["only reasoning", sse(f.reasoning, f.stop), "empty_response", /reasoning/],
    ["only whitespace", sse(f.whitespace, f.stop), "empty_response", /only whitespace/],
    ["only junk data lines", sse("42", "{}", "null"), "empty_response", /3 data lines that were not/],
    ...f.failures.map(([name, frames, kind]): [string, ScriptedResponse, string, RegExp] => [name, sse(...frames), kind, /in the stream/]),
    ...BOM_FAILED,
  ];

  it.each(failed)("%s ends in a clear error", async (_name, response, errorType, message) => {
    harness = await startHarness({ wire, retry: { maxRetries: 0 } });
    await expectClearError(harness, response, errorType, message);
  });

  it.each([...KEEP_ALIVES, ...f.keepAlives])("%s: an idle timeout with a clear error", async (_name, keepAlive) => {
    harness = await startHarness({ wire, ...KEPT_ALIVE_HARNESS });
    await expectIdleTimeout(harness, keepAlive);
  });

  it("keep-alives before and between data that arrives in time: answered", async () => {
    harness = await startHarness({ wire, retry: { maxRetries: 0 }, streamIdleTimeoutMs: 2_000 });
    harness.server.enqueue(slowAnswerKeptAlive(samples, `: ping\n\n${f.keepAlives[0]?.[1] ?? ""}`));
    const result = await harness.session.send("hi");
    expect(result.finalMessage).toBe("Hello");
    expect(harness.ofType("session.error")).toEqual([]);
  });

  it("shows a refusal as the answer", async () => {
    harness = await startHarness({ wire, retry: { maxRetries: 0 } });
    harness.server.enqueue(f.refusal);
    expect((await harness.session.send("hi")).finalMessage).toBe("I can't help with that.");
  });

  it("retries a failure reported in the stream, and uses the next answer", async () => {
    harness = await startHarness({ wire });
    harness.server.enqueue(sse(...(f.failures[0]?.[1] ?? [])), text("Second try."));
    expect((await harness.session.send("hi")).finalMessage).toBe("Second try.");
  });

  it("stops a stream that never ends at the output limit", async () => {
    harness = await startHarness({ wire, retry: { maxRetries: 0 }, provider: { maxOutputTokens: 100 } });
    harness.server.enqueue({ kind: "raw", frames: [f.hello], repeat: f.idle });
    const result = await harness.session.send("hi");
    expect(result.error?.kind).toBe("invalid_response");
    expect(harness.ofType("session.error")[0]?.data.message).toMatch(/kept streaming past the output limit/);
  });

  it("stops a stream that never ends at the overall response time", async () => {
    harness = await startHarness({ wire, retry: { maxRetries: 0 }, provider: { responseTimeoutMs: 300 } });
    harness.server.enqueue({ kind: "raw", frames: [f.hello], repeat: "{}" });
    const result = await harness.session.send("hi");
    expect(result.error?.kind).toBe("invalid_response");
    expect(harness.ofType("session.error")[0]?.data.message).toMatch(/still streaming after/);
  });

  it("does not retry an answer cut at the output limit before any text", async () => {
    harness = await startHarness({ wire });
    const cut =
      wire === "responses"
        ? sse(
            f.reasoning,
            j({ type: "response.incomplete", response: { status: "incomplete", incomplete_details: { reason: "max_output_tokens" }, output: [] } }),
          )
        : sse(f.reasoning, j({ type: "message_delta", delta: { stop_reason: "max_tokens" } }), f.stop);
    harness.server.enqueue(cut, text("unused"));
    const result = await harness.session.send("hi");
    expect(result.error?.kind).toBe("invalid_response");
    expect(harness.ofType("session.error")[0]?.data.message).toMatch(/finish_reason "length".*raise provider.maxOutputTokens/);
    expect(harness.server.completionRequests).toHaveLength(1);
  });
});

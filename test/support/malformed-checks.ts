/**
 * What every malformed-response corpus shares, on whichever wire: the check made of a response that holds no
 * answer, the byte-order-mark cases, and streams kept alive without data (keep-alives must not count as
 * progress, so each ends as an idle timeout that says so).
 */
import { gzipSync } from "node:zlib";
import { expect } from "vitest";
import type { Harness } from "./engine-harness.js";
import type { ScriptedResponse } from "./scripted-responses.js";

/** The turn ends in a session.error of `errorType` whose message matches, and the turn closes properly. */
export async function expectClearError(harness: Harness, response: ScriptedResponse, errorType: string, message: RegExp): Promise<void> {
  harness.server.enqueue(response);
  const result = await harness.session.send("hi");
  expect(result.outcome).toBe("error");
  const error = harness.ofType("session.error")[0];
  expect(error?.data.errorType).toBe(errorType);
  expect(error?.data.message).toMatch(message);
  expect(harness.types().slice(-3)).toEqual(["session.error", "assistant.turn_end", "session.idle"]);
}

/** A wire's own pieces, from which the shared cases are made. */
export interface WireSamples {
  /** A data value (JSON text) that adds `text` to the answer. */
  say(text: string): string;
  /** The data value that ends the stream (`[DONE]` on Chat Completions). */
  end: string;
  /** A whole non-streamed answer saying "Hello". */
  json: unknown;
}

const eventStream = (body: string): ScriptedResponse => ({ kind: "raw", body, headers: { "content-type": "text/event-stream" } });

/** A UTF-8 byte-order mark is not part of the body (the SSE spec ignores one; JSON parsers choke on it): each answers "Hello". */
export function bomAnswered(wire: WireSamples): [string, ScriptedResponse][] {
  const hello = wire.say("Hello");
  return [
    ["a UTF-8 BOM before the first data:", eventStream(`\uFEFFdata: ${hello}\n\ndata: ${wire.end}\n\n`)],
    ["a UTF-8 BOM before an SSE comment", eventStream(`\uFEFF: hi\n\ndata: ${hello}\n\ndata: ${wire.end}\n\n`)],
    ["a UTF-8 BOM then blank lines before the stream", eventStream(`\uFEFF\r\n\r\ndata: ${hello}\r\n\r\ndata: ${wire.end}\r\n\r\n`)],
    ["a UTF-8 BOM in a non-streamed answer", { kind: "raw", body: `\uFEFF${JSON.stringify(wire.json)}`, headers: { "content-type": "application/json" } }],
    [
      "a UTF-8 BOM in a gzip-compressed stream",
      {
        kind: "raw",
        bodyBase64: gzipSync(Buffer.from(`\uFEFFdata: ${hello}\n\ndata: ${wire.end}\n\n`)).toString("base64"),
        headers: { "content-type": "text/event-stream", "content-encoding": "gzip" },
      },
    ],
  ];
}

/** A byte-order mark before something that is no answer: the error says what it is, as without one. */
export const BOM_FAILED: [string, ScriptedResponse, string, RegExp][] = [
  ["a UTF-8 BOM before an HTML page", { kind: "raw", body: "\uFEFF<html></html>", headers: { "content-type": "text/html" } }, "invalid_response", /HTML page/],
  ["a UTF-8 BOM and nothing else", { kind: "raw", body: "\uFEFF", headers: { "content-type": "application/json" } }, "empty_response", /an empty body/],
];

/** Keep-alives any wire's endpoint may send: SSE comments, whitespace, blank data lines, events without data, pings. */
export const KEEP_ALIVES: [string, string][] = [
  ["SSE comments only", ": ping\n\n"],
  ["whitespace only", "\n"],
  ["spaces only", "  "],
  ["blank data lines only", "data: \n\n"],
  ["empty events only", "event: ping\n\n"],
  ["{} pings only", "data: {}\n\n"],
];

/** The harness options for a stream kept alive without data: a short idle timeout, far below the overall limit. */
export const KEPT_ALIVE_HARNESS = { retry: { maxRetries: 0 }, streamIdleTimeoutMs: 600, provider: { responseTimeoutMs: 20_000 } };

/** A stream that sends only `keepAlive`, again and again, ends as an idle timeout that says so. */
export async function expectIdleTimeout(harness: Harness, keepAlive: string): Promise<void> {
  harness.server.enqueue({ kind: "raw", frames: [], keepAlive: { text: keepAlive, everyMs: 40 } });
  const result = await harness.session.send("hi");
  expect(result.outcome).toBe("error");
  const error = harness.ofType("session.error")[0];
  expect(error?.data.message).toMatch(/^The model endpoint sent no data for 600 ms, only keep-alives \(provider\.streamIdleTimeoutMs\)\./);
  expect(error?.data.errorType).toBe("network");
}

/** "Hello" in four pieces 150 ms apart, with `keepAlive` every 20 ms before and between them (idle timeout 2 s). */
export function slowAnswerKeptAlive(wire: WireSamples, keepAlive = ": ping\n\n\n"): ScriptedResponse {
  const pieces = ["He", "l", "l", "o"].map((piece) => ({ afterMs: 150, text: `data: ${wire.say(piece)}\n\n` }));
  return { kind: "raw", timed: [...pieces, { afterMs: 150, text: `data: ${wire.end}\n\n` }], keepAlive: { text: keepAlive, everyMs: 20 } };
}

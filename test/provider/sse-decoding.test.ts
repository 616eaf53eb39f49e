/**
 * The SSE reading of a model's stream (stream-body.ts) against the openai SDK's decoder it replaced: the same
 * data events, in the same order, with the same names, however the body is cut into pieces on the way.
 */
import { _iterSSEMessages } from "openai/core/streaming";
import { describe, expect, it } from "vitest";
import { peekBody, sseDataEvents, type SseDataEvent } from "../../src/provider/stream-body.js";

const BODIES: Record<string, string> = {
  "chat chunks": 'data: {"choices":[{"delta":{"content":"Hel"}}]}\n\ndata: {"choices":[{"delta":{"content":"lo"}}]}\n\ndata: [DONE]\n\n',
  "CRLF line ends": 'data: {"a":1}\r\n\r\ndata: {"b":2}\r\n\r\n',
  "CR line ends": 'data: {"a":1}\r\rdata: {"b":2}\r\r',
  "named events": 'event: response.output_text.delta\ndata: {"delta":"x"}\n\nevent: ping\ndata: {}\n\n',
  "comments and keep-alives": ': ping\n\n: another\ndata: {"a":1}\n\n\n\n:\n\n',
  "blank and whitespace data": "data:\n\ndata:   \n\ndata: {}\n\n",
  "multi-line data": "data: line one\ndata: line two\ndata:\ndata: four\n\n",
  "no space after the colon": 'data:{"a":1}\n\nevent:named\ndata:{"b":2}\n\n',
  "an event without data": "event: lonely\n\ndata: after\n\n",
  "ids and retries": "id: 7\nretry: 100\ndata: with id\n\nid\nretry: x\ndata: next\n\n",
  "unknown fields": "foo: bar\ndata: kept\nbaz\n\n",
  "a field without a colon": "data\n\ndata\ndata: two\n\n",
  "a last event without its blank line": 'data: {"a":1}\n\ndata: {"cut":true}\n',
  "a last line without its newline": 'data: {"a":1}\n\ndata: {"cut":true}',
  "non-ASCII text": 'data: {"content":"héllo — 日本語 🎉"}\n\ndata: {"content":"ünïcödé"}\n\n',
  "mixed line ends": "data: a\r\n\ndata: b\n\r\ndata: c\r\r\ndata: d\n\n",
  "an event name carried to the next event": "event: first\ndata: 1\n\ndata: 2\n\n",
  "a colon in the value": 'data: {"url":"http://x:80/a"}\n\nevent: a:b\ndata: c: d\n\n',
  "a space-only line": "data: a\n \ndata: b\n\n",
};

async function* pieces(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (cut > start) yield bytes.subarray(start, cut);
    start = Math.max(start, cut);
  }
}

/** What the SDK's decoder made of the body, keep-alives left out as sseDataEvents leaves them. */
async function sdkEvents(bytes: Uint8Array<ArrayBuffer>): Promise<SseDataEvent[]> {
  const out: SseDataEvent[] = [];
  for await (const message of _iterSSEMessages(new Response(new Blob([new Uint8Array(bytes)])), new AbortController())) {
    if (message.data.trim() !== "") out.push({ event: message.event || null, data: message.data });
  }
  return out;
}

async function ourEvents(bytes: Uint8Array, cuts: number[]): Promise<SseDataEvent[]> {
  const out: SseDataEvent[] = [];
  for await (const event of sseDataEvents(pieces(bytes, cuts))) out.push({ event: event.event || null, data: event.data });
  return out;
}

/** A deterministic pseudo-random sequence (no flaky tests). */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe("the SSE decoder of streamed answers", () => {
  for (const [name, text] of Object.entries(BODIES)) {
    it(`reads ${name} as the SDK did, whole and cut at every byte`, async () => {
      const bytes = new TextEncoder().encode(text);
      const expected = await sdkEvents(bytes);
      expect(await ourEvents(bytes, [])).toEqual(expected);
      for (let cut = 1; cut < bytes.length; cut++) expect(await ourEvents(bytes, [cut])).toEqual(expected);
      const random = seeded(text.length);
      for (let round = 0; round < 20; round++) {
        const cuts = Array.from({ length: 1 + Math.floor(random() * 6) }, () => Math.floor(random() * bytes.length)).sort((a, b) => a - b);
        expect(await ourEvents(bytes, cuts)).toEqual(expected);
      }
    });
  }

  it("reads random bodies made of SSE's parts as the SDK did", async () => {
    const parts = ["data:", "data: ", "event:", "event: ", "id: ", "retry: ", ":", " ", "\r", "\n", "\r\n", "\n\n", "x", "{}", "[DONE]", "é", "🎉", "a:b"];
    const random = seeded(42);
    for (let body = 0; body < 300; body++) {
      const text = Array.from({ length: 5 + Math.floor(random() * 40) }, () => parts[Math.floor(random() * parts.length)]).join("");
      const bytes = new TextEncoder().encode(text);
      const expected = await sdkEvents(bytes);
      const cuts = Array.from({ length: Math.floor(random() * 5) }, () => Math.floor(random() * bytes.length)).sort((a, b) => a - b);
      expect({ text, events: await ourEvents(bytes, cuts) }).toEqual({ text, events: expected });
    }
  });

  it("gives each event as soon as its piece has arrived", async () => {
    const seen: string[] = [];
    const events = sseDataEvents(
      (async function* () {
        yield new TextEncoder().encode("data: one\n\ndata: tw");
        seen.push("second piece asked for");
        yield new TextEncoder().encode("o\n\n");
      })(),
    );
    for await (const event of events) seen.push(event.data);
    expect(seen).toEqual(["one", "second piece asked for", "two"]);
  });

  it("lets the connection go when the reader stops early, and replays what the first look read", async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("\uFEFFdata: first\n\n"));
        controller.enqueue(new TextEncoder().encode("data: [DONE]\n\n"));
      },
      cancel() {
        cancelled = true;
      },
    });
    const peeked = await peekBody(new Response(body));
    expect(peeked.isEventStream).toBe(true);
    const got: string[] = [];
    for await (const event of sseDataEvents(peeked.body as AsyncIterable<Uint8Array>)) {
      got.push(event.data);
      if (event.data === "[DONE]") break;
    }
    expect(got).toEqual(["first", "[DONE]"]);
    expect(cancelled).toBe(true);
  });
});

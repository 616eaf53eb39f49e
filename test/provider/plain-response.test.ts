/**
 * PlainResponse (src/provider/plain-response.ts) stands in for the global Response in the node:http fetch, so
 * a run never loads undici: for everything the openai and Anthropic clients and our readers do with a response
 * it must agree with the real Response, body by body and step by step.
 */
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { PlainHeaders } from "../../src/provider/plain-headers.js";
import { PlainResponse } from "../../src/provider/plain-response.js";

/** What both offer, read through one interface (the project's lib has no DOM types for Response). */
interface Readout {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly url: string;
  readonly bodyUsed: boolean;
  readonly body: ReadableStream<Uint8Array> | null;
  readonly headers: { get(name: string): string | null; entries(): IterableIterator<[string, string]> };
  text(): Promise<string>;
  json(): Promise<unknown>;
  arrayBuffer(): Promise<ArrayBuffer>;
  clone(): Readout;
}

function streamOf(pieces: readonly Uint8Array[], failAtEnd = false): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = pieces[index++];
      if (piece) controller.enqueue(piece);
      else if (failAtEnd) controller.error(new Error("socket hang up"));
      else controller.close();
    },
  });
}

const bytes = (text: string) => new TextEncoder().encode(text);
const headerList: [string, string][] = [
  ["Content-Type", "application/json"],
  ["X-Request-Id", "req_1"],
  ["retry-after", "2"],
];

/** The body as node-fetch.ts hands it over: Node's stream of the answer. */
function nodeStreamOf(pieces: readonly Uint8Array[], failAtEnd = false): Readable {
  let index = 0;
  return new Readable({
    read() {
      const piece = pieces[index++];
      if (piece) this.push(Buffer.from(piece));
      else if (failAtEnd) this.destroy(new Error("socket hang up"));
      else this.push(null);
    },
  });
}

/** The same answer as a real Response and as a PlainResponse (over a web stream, or over a Node stream). */
function both(pieces: readonly Uint8Array[] | null, status = 200, statusText = "OK", failAtEnd = false, node = false): [Readout, Readout] {
  const real = new Response(pieces ? streamOf(pieces, failAtEnd) : null, { status, statusText, headers: headerList }) as unknown as Readout;
  const headers = new PlainHeaders();
  for (const [name, value] of headerList) headers.append(name, value);
  const body = pieces ? (node ? nodeStreamOf(pieces, failAtEnd) : streamOf(pieces, failAtEnd)) : null;
  const plain = new PlainResponse(body, { status, statusText, headers }) as unknown as Readout;
  return [real, plain];
}

async function outcome(action: () => Promise<unknown>): Promise<unknown> {
  try {
    const value = await action();
    return { value: value instanceof ArrayBuffer ? [...new Uint8Array(value)] : value };
  } catch (error) {
    return { error: (error as Error).name, message: /unusable|consumed|hang up|JSON/i.test((error as Error).message) };
  }
}

async function observe(response: Readout, steps: ((response: Readout) => Promise<unknown>)[]): Promise<unknown[]> {
  const seen: unknown[] = [
    response.status,
    response.statusText,
    response.ok,
    response.url,
    response.bodyUsed,
    response.body === null,
    [...response.headers.entries()],
    response.headers.get("RETRY-AFTER"),
  ];
  for (const step of steps) {
    seen.push(await outcome(() => step(response)));
    seen.push(response.bodyUsed);
  }
  return seen;
}

const text = (r: Readout) => r.text();
const json = (r: Readout) => r.json();
const buffer = (r: Readout) => r.arrayBuffer();
const cloneText = async (r: Readout) => [await r.clone().text(), await r.text()];
const readOnePiece = async (r: Readout) => {
  const reader = (r.body as ReadableStream<Uint8Array>).getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  return [...(value ?? [])];
};
const lockOnly = async (r: Readout) => {
  (r.body as ReadableStream<Uint8Array>).getReader();
  return "locked";
};
// How the clients let a body go they do not need (their CancelReadableStream).
const iterateReturn = async (r: Readout) => {
  const body = r.body as unknown as AsyncIterable<Uint8Array>;
  await body[Symbol.asyncIterator]().return?.();
  return "cancelled";
};

const cases: [string, Uint8Array[] | null, number, ((r: Readout) => Promise<unknown>)[], boolean?][] = [
  ["a JSON body in pieces, read as JSON", [bytes('{"a":'), bytes('[1,"é"]}')], 200, [json, text]],
  ["text, then text again", [bytes("hello "), bytes("world")], 200, [text, text]],
  ["a leading byte-order mark, dropped by text()", [new Uint8Array([0xef, 0xbb]), new Uint8Array([0xbf]), bytes("{}")], 200, [text]],
  ["a byte-order mark kept by arrayBuffer()", [new Uint8Array([0xef, 0xbb, 0xbf, 0x41])], 200, [buffer, json]],
  ["a character split between pieces", [new Uint8Array([0xc3]), new Uint8Array([0xa9])], 200, [text]],
  ["not JSON", [bytes("<html>oops</html>")], 502, [json, text]],
  ["an error answer", [bytes('{"error":{"message":"slow down"}}')], 429, [text]],
  ["no body", null, 204, [text, json]],
  ["cloned, then both read", [bytes("one"), bytes("two")], 200, [cloneText, text]],
  ["a piece read from the body, then text", [bytes("first"), bytes("second")], 200, [readOnePiece, text]],
  ["a locked body", [bytes("x")], 200, [lockOnly, text]],
  ["a body let go as the clients do", [bytes("x")], 500, [iterateReturn, text]],
  ["a body that fails before its end", [bytes("partial")], 200, [text], true],
];

describe("PlainResponse", () => {
  it.each(cases)("agrees with the real Response: %s", async (_name, pieces, status, steps, failAtEnd) => {
    const [real, plain] = both(pieces, status, status === 200 ? "OK" : "Nope", failAtEnd);
    expect(await observe(plain, steps)).toEqual(await observe(real, steps));
  });

  it.each(cases)("over a Node stream, agrees with the real Response: %s", async (_name, pieces, status, steps, failAtEnd) => {
    const [real, plain] = both(pieces, status, status === 200 ? "OK" : "Nope", failAtEnd, true);
    expect(await observe(plain, steps)).toEqual(await observe(real, steps));
  });

  // stream-body.ts reads through bodyReader(), which leaves Node's web streams unloaded (docs/benchmarks.md).
  it("reads a Node stream's body through bodyReader() as its web stream gives it, and the body is then used", async () => {
    for (const node of [false, true]) {
      const [, plain] = both([bytes("data: 1\n\n"), bytes("data: 2\n\n")], 200, "OK", false, node);
      const response = plain as unknown as PlainResponse;
      const reader = response.bodyReader();
      const pieces: Uint8Array[] = [];
      for (let next = await reader!.read(); !next.done; next = await reader!.read()) pieces.push(next.value);
      expect(Buffer.concat(pieces).toString()).toBe("data: 1\n\ndata: 2\n\n");
      expect(response.bodyUsed).toBe(true);
      expect(await outcome(() => response.text())).toEqual({ error: "TypeError", message: true });
    }
  });

  it("lets a Node stream's body go when its reader is cancelled", async () => {
    const stream = nodeStreamOf([bytes("one"), bytes("two")]);
    const response = new PlainResponse(stream, { status: 200, statusText: "OK", headers: new PlainHeaders() });
    const reader = response.bodyReader();
    await reader!.read();
    await reader!.cancel();
    expect(stream.destroyed).toBe(true);
  });

  it("says it is a Response, as the tag checks the clients make read it", () => {
    const [, plain] = both(null);
    expect(Object.prototype.toString.call(plain)).toBe("[object Response]");
  });
});

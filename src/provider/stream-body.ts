/**
 * Reading a model endpoint's response body, whatever wire it speaks (model-response.ts reads every wire's
 * body with these): a first look that tells an SSE stream from a plain body, with a
 * leading UTF-8 byte-order mark dropped (the SSE spec ignores one, and JSON parsers refuse it); the SSE data
 * events, keep-alives left out (comments, blank `data:` lines, events without data), so that only data counts
 * as progress; and the helpers to describe a body that is not what was asked for.
 *
 * This is the hot path of a streamed answer (every piece of every response goes through it), so each piece
 * costs O(its own size): the body's reader is read directly (no second stream replays the first look), and
 * the SSE parser (eventsource-parser) scans only the new text, where the openai SDK's decoder copied the
 * whole unread buffer for each event. test/provider/sse-decoding.test.ts holds it to the SDK's reading.
 */
import { createParser } from "eventsource-parser";
import type { PlainResponse } from "./plain-response.js";

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const SSE_START = /^(?:data|event|id|retry)\s*:|^:/;
/** How much of a body that is not a stream is read to tell what it is. */
const MAX_PLAIN_BODY_BYTES = 4 * 1024 * 1024;

export interface PeekedBody {
  /** The first characters after any BOM and leading whitespace (latin1, enough to tell what the body is). */
  head: string;
  /** The whole body again, from its first byte after the BOM; null when the response had none. */
  body: PeekedPieces | null;
  /** Whether the body looks like an SSE stream. */
  isEventStream: boolean;
}

/** A body read piece by piece: what the first look read, then the rest as it arrives. */
export interface PeekedPieces extends AsyncIterable<Uint8Array> {
  /** Lets the connection go (a reader that stops early). */
  cancel(): Promise<void>;
}

export interface PeekOptions {
  /** Called for every piece of the body as it arrives (keep-alives included): the connection is alive. */
  onBytes?(): void;
}

function withoutBom(chunks: Uint8Array[]): Uint8Array[] {
  const first = Buffer.concat(chunks);
  if (first.length < 3 || !UTF8_BOM.every((byte, index) => first[index] === byte)) return chunks;
  return [first.subarray(3)];
}

/** Reads until the first non-blank characters are known, and gives back a body that replays them. */
export async function peekBody(response: Response, options: PeekOptions = {}): Promise<PeekedBody> {
  // A PlainResponse (node-fetch.ts) reads its Node stream without setting up web streams.
  const plain = response as Partial<Pick<PlainResponse, "bodyReader">>;
  const reader = typeof plain.bodyReader === "function" ? plain.bodyReader() : (response.body?.getReader() ?? null);
  if (!reader) return { head: "", body: null, isEventStream: false };
  let chunks: Uint8Array[] = [];
  let total = 0;
  let bomChecked = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    options.onBytes?.();
    chunks.push(value);
    total += value.length;
    // Only one leading BOM is dropped, and it may arrive split across the first pieces: decided at three bytes.
    if (!bomChecked && total >= 3) {
      chunks = withoutBom(chunks);
      bomChecked = true;
    }
    if (bomChecked && (Buffer.concat(chunks).toString("latin1").trimStart().length >= 8 || total > 64 * 1024)) break;
  }
  const head = Buffer.concat(chunks).toString("latin1").trimStart();
  const queued = chunks;
  const body: PeekedPieces = {
    async *[Symbol.asyncIterator]() {
      let finished = false;
      try {
        yield* queued.splice(0);
        for (;;) {
          const { done, value } = await reader.read();
          if (done) {
            finished = true;
            return;
          }
          options.onBytes?.();
          yield value;
        }
      } finally {
        // A reader that stops early (the end marker, a limit) lets the connection go, as a stream's own iterator does.
        if (!finished) reader.cancel().catch(() => undefined);
      }
    },
    cancel: () => reader.cancel(),
  };
  return { head, body, isEventStream: SSE_START.test(head) };
}

export interface SseDataEvent {
  /** The `event:` name, when the stream names its events (Responses, Anthropic). */
  event: string | null;
  data: string;
}

/**
 * The SSE events that carry data. Keep-alives produce none: comments (`: ping`), whitespace, blank `data:`
 * lines and events without data are skipped here, so a caller that counts what it gets toward an idle timeout
 * counts only data. An event the body ends in the middle of (no blank line after it) is not one, as the SDK
 * read it.
 */
export async function* sseDataEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseDataEvent> {
  // Decoded as a stream: a character split between two pieces is joined, not replaced.
  const decoder = new TextDecoder();
  // Filled by the parser while a piece is fed, emptied before the next: one array for the whole stream.
  const ready: SseDataEvent[] = [];
  const parser = createParser({
    onEvent: (message) => {
      if (message.data.trim() !== "") ready.push({ event: message.event ?? null, data: message.data });
    },
  });
  let endsLine = true;
  const feed = (text: string): void => {
    if (text === "") return;
    endsLine = text.charCodeAt(text.length - 1) === 0x0a;
    parser.feed(text);
  };
  for await (const piece of body) {
    feed(decoder.decode(piece, { stream: true }));
    for (let index = 0; index < ready.length; index++) yield ready[index] as SseDataEvent;
    ready.length = 0;
  }
  feed(decoder.decode());
  // The body's last line ends with it, as the SDK read it (a lone CR waits for an LF that will not come).
  if (!endsLine) parser.feed("\n");
  yield* ready;
}

/** A body that is not a stream, read whole (up to a limit that is plenty to tell what it is). */
export async function readAll(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    total += chunk.length;
    if (total > MAX_PLAIN_BODY_BYTES) break;
  }
  return Buffer.concat(chunks);
}

export function looksBinary(bytes: Buffer): boolean {
  const sample = bytes.subarray(0, 512);
  let control = 0;
  for (const byte of sample) if (byte === 0 || byte < 9 || (byte > 13 && byte < 32)) control++;
  return control > 0 && control >= sample.length / 20;
}

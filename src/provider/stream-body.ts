/**
 * Reading a model endpoint's response body, whatever wire it speaks (model-response.ts reads every wire's
 * body with these): a first look that tells an SSE stream from a plain body, with a
 * leading UTF-8 byte-order mark dropped (the SSE spec ignores one, and JSON parsers refuse it); the SSE data
 * events, keep-alives left out (comments, blank `data:` lines, events without data), so that only data counts
 * as progress; and the helpers to describe a body that is not what was asked for.
 */
import { _iterSSEMessages } from "openai/core/streaming";

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const SSE_START = /^(?:data|event|id|retry)\s*:|^:/;
/** How much of a body that is not a stream is read to tell what it is. */
const MAX_PLAIN_BODY_BYTES = 4 * 1024 * 1024;

export interface PeekedBody {
  /** The first characters after any BOM and leading whitespace (latin1, enough to tell what the body is). */
  head: string;
  /** The whole body again, from its first byte after the BOM; null when the response had none. */
  body: ReadableStream<Uint8Array> | null;
  /** Whether the body looks like an SSE stream. */
  isEventStream: boolean;
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
  if (!response.body) return { head: "", body: null, isEventStream: false };
  const reader = response.body.getReader();
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
  const queued = [...chunks];
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = queued.shift();
      if (next) {
        controller.enqueue(next);
        return;
      }
      const { done, value } = await reader.read();
      if (done) controller.close();
      else {
        options.onBytes?.();
        controller.enqueue(value);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { head, body, isEventStream: SSE_START.test(head) };
}

export interface SseDataEvent {
  /** The `event:` name, when the stream names its events (Responses, Anthropic). */
  event: string | null;
  data: string;
}

/**
 * The SSE events that carry data, as the SDK's decoder reads them. Keep-alives produce none: comments (`: ping`),
 * whitespace, blank `data:` lines and events without data are skipped here, so a caller that counts what it
 * gets toward an idle timeout counts only data.
 */
export async function* sseDataEvents(body: ReadableStream<Uint8Array>, response: Response): AsyncGenerator<SseDataEvent> {
  const replay = new Response(body, { headers: response.headers, status: response.status });
  for await (const message of _iterSSEMessages(replay, new AbortController())) {
    if (message.data.trim() === "") continue;
    yield { event: message.event, data: message.data };
  }
}

/** A body that is not a stream, read whole (up to a limit that is plenty to tell what it is). */
export async function readAll(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
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

/**
 * Reads an HTTP 200 from a model endpoint, whatever it holds, on any wire. The body is sniffed rather than
 * trusted to its content-type: an SSE stream is parsed event by event (the openai SDK's SSE decoder; the
 * wire's reader validates each value), a JSON body may be a non-streamed answer (accepted) or an error, and
 * anything else (HTML, gzip, binary, nothing) is an error that says what arrived.
 */
import { _iterSSEMessages } from "openai/core/streaming";
import type { WireReader } from "./answer-assembler.js";
import { ProviderError } from "./errors.js";

/** How much of a body that is not a stream is read to tell what it is. */
const MAX_PLAIN_BODY_BYTES = 4 * 1024 * 1024;
const SSE_START = /^(?:data|event|id|retry)\s*:|^:/;

interface Peeked {
  head: string;
  body: ReadableStream<Uint8Array> | null;
  bytes: Uint8Array;
}

/** Reads until the first non-blank characters are known, and gives back a body that replays them. */
async function peek(response: Response): Promise<Peeked> {
  if (!response.body) return { head: "", body: null, bytes: new Uint8Array() };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    total += value.length;
    if (Buffer.concat(chunks).toString("latin1").trimStart().length >= 8 || total > 64 * 1024) break;
  }
  const bytes = Buffer.concat(chunks);
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
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { head: bytes.toString("latin1").trimStart(), body, bytes };
}

async function readAll(body: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    chunks.push(chunk);
    total += chunk.length;
    if (total > MAX_PLAIN_BODY_BYTES) break;
  }
  return Buffer.concat(chunks);
}

function looksBinary(bytes: Buffer): boolean {
  const sample = bytes.subarray(0, 512);
  let control = 0;
  for (const byte of sample) if (byte === 0 || byte < 9 || (byte > 13 && byte < 32)) control++;
  return control > 0 && control >= sample.length / 20;
}

function errorText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    if (typeof record.message === "string") return record.message;
  }
  return JSON.stringify(value).slice(0, 300);
}

export interface ReadContext {
  reader: WireReader;
  /** The endpoint, for messages. */
  endpoint: string;
  /** Called for every piece of the stream (the idle timer). */
  onActivity(): void;
}

/** What the endpoint sent instead of a completion: an error to report. `retry` when another try may differ. */
function notACompletion(ctx: ReadContext, response: Response, what: string, retryable: boolean): ProviderError {
  const type = response.headers.get("content-type");
  const message = `The model endpoint ${ctx.endpoint} answered ${response.status}${type ? ` (${type})` : ""} with ${what}, not a ${ctx.reader.noun}.${retryable ? "" : ` ${ctx.reader.baseUrlHint}`}`;
  return new ProviderError(retryable ? "empty_response" : "invalid_response", message, { statusCode: response.status });
}

async function readStream(body: ReadableStream<Uint8Array>, response: Response, ctx: ReadContext): Promise<void> {
  const { reader } = ctx;
  const replay = new Response(body, { headers: response.headers, status: response.status });
  for await (const event of _iterSSEMessages(replay, new AbortController())) {
    ctx.onActivity();
    if (event.data.trim() === "[DONE]") {
      reader.markDone();
      break;
    }
    if (event.data.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(event.data);
    } catch {
      reader.skip(event.data);
      continue;
    }
    if (typeof value === "object" && value !== null && "error" in value && (value as { error: unknown }).error) {
      throw new ProviderError("server", `The model endpoint sent an error in the stream: ${errorText((value as { error: unknown }).error)}`);
    }
    if (reader.add(value, event.data, event.event ?? undefined) === "end") break;
  }
}

async function readPlain(body: ReadableStream<Uint8Array> | null, response: Response, ctx: ReadContext): Promise<void> {
  const bytes = body ? await readAll(body) : Buffer.alloc(0);
  if (bytes.length === 0 || bytes.toString("utf8").trim() === "") throw notACompletion(ctx, response, "an empty body", true);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) throw notACompletion(ctx, response, `gzip-compressed data it did not declare (${bytes.length} bytes)`, false);
  if (looksBinary(bytes)) throw notACompletion(ctx, response, `binary data (${bytes.length} bytes)`, false);
  const textBody = bytes.toString("utf8").trim();
  if (textBody.startsWith("<")) throw notACompletion(ctx, response, "an HTML page", false);
  let value: unknown;
  try {
    value = JSON.parse(textBody);
  } catch {
    throw notACompletion(ctx, response, `text: ${JSON.stringify(textBody.slice(0, 120))}`, false);
  }
  if (typeof value === "object" && value !== null && "error" in value && (value as { error: unknown }).error) {
    throw new ProviderError("server", `The model endpoint answered ${response.status} with an error: ${errorText((value as { error: unknown }).error)}`, {
      statusCode: response.status,
    });
  }
  if (!ctx.reader.addJson(value)) throw notACompletion(ctx, response, `JSON that is not a ${ctx.reader.noun}: ${textBody.slice(0, 120)}`, false);
  ctx.onActivity();
}

/** Reads the whole response into the wire's reader; throws a ProviderError when it holds no answer. */
export async function readModelResponse(response: Response, ctx: ReadContext): Promise<void> {
  const peeked = await peek(response);
  ctx.onActivity();
  try {
    if (peeked.body && SSE_START.test(peeked.head)) await readStream(peeked.body, response, ctx);
    else await readPlain(peeked.body, response, ctx);
  } catch (error) {
    // Stopped before the end (an error in the stream, the output limit): let the connection go.
    peeked.body?.cancel().catch(() => undefined);
    throw error;
  }
  const { reader } = ctx;
  if (!reader.usable) {
    // Cut off by the output limit or a filter before any answer: the same request would end the same way.
    const final = reader.finishReason === "length" || reader.finishReason === "content_filter";
    const hint = reader.finishReason === "length" ? " The output limit was reached first: raise provider.maxOutputTokens." : "";
    throw new ProviderError(
      final ? "invalid_response" : "empty_response",
      `The model endpoint ${ctx.endpoint} sent no answer: ${reader.describeEmpty()}.${hint}`,
      {
        statusCode: response.status,
      },
    );
  }
}

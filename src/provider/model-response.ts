/**
 * Reads an HTTP 200 from a model endpoint, whatever it holds, on any wire. The body is sniffed rather than
 * trusted to its content-type: an SSE stream is parsed event by event (stream-body.ts; the wire's reader
 * validates each value), a JSON body may be a non-streamed answer (accepted) or an error, and
 * anything else (HTML, gzip, binary, nothing) is an error that says what arrived.
 */
import type { WireReader } from "./answer-assembler.js";
import { ProviderError } from "./errors.js";
import { looksBinary, peekBody, readAll, sseDataEvents } from "./stream-body.js";

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
  /** Called for every piece of the answer (the idle timer): a chunk, the end, never a keep-alive. */
  onData(): void;
  /** Called for every piece of the body, keep-alives included. */
  onBytes?(): void;
}

/** What the endpoint sent instead of a completion: an error to report. `retry` when another try may differ. */
function notACompletion(ctx: ReadContext, response: Response, what: string, retryable: boolean): ProviderError {
  const type = response.headers.get("content-type");
  const message = `The model endpoint ${ctx.endpoint} answered ${response.status}${type ? ` (${type})` : ""} with ${what}, not a ${ctx.reader.noun}.${retryable ? "" : ` ${ctx.reader.baseUrlHint}`}`;
  return new ProviderError(retryable ? "empty_response" : "invalid_response", message, { statusCode: response.status });
}

async function readStream(body: AsyncIterable<Uint8Array>, ctx: ReadContext): Promise<void> {
  const { reader } = ctx;
  for await (const { event, data } of sseDataEvents(body)) {
    if (data.trim() === "[DONE]") {
      ctx.onData();
      reader.markDone();
      break;
    }
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      reader.skip(data);
      continue;
    }
    if (typeof value === "object" && value !== null && "error" in value && (value as { error: unknown }).error) {
      throw new ProviderError("server", `The model endpoint sent an error in the stream: ${errorText((value as { error: unknown }).error)}`);
    }
    // A ping (`{}`, a scalar, an event that only keeps the connection open) is not part of the answer.
    const added = reader.add(value, data, event ?? undefined);
    if (added !== false) ctx.onData();
    if (added === "end") break;
  }
}

async function readPlain(body: AsyncIterable<Uint8Array> | null, response: Response, ctx: ReadContext): Promise<void> {
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
  ctx.onData();
}

/** Reads the whole response into the wire's reader; throws a ProviderError when it holds no answer. */
export async function readModelResponse(response: Response, ctx: ReadContext): Promise<void> {
  const peeked = await peekBody(response, { ...(ctx.onBytes ? { onBytes: ctx.onBytes } : {}) });
  try {
    if (peeked.body && peeked.isEventStream) await readStream(peeked.body, ctx);
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

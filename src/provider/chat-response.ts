/**
 * Reads an HTTP 200 from the chat completions endpoint, whatever it holds. The body is sniffed rather than
 * trusted to its content-type: an SSE stream is parsed event by event (the SDK's SSE decoder, our own
 * validation), a JSON body may be a non-streamed `chat.completion` (accepted) or an error, and anything else
 * (HTML, gzip, binary, nothing) is an error that says what arrived.
 */
import { completionSchema, ResponseAssembler } from "./chat-chunks.js";
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
  assembler: ResponseAssembler;
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
  const message = `The model endpoint ${ctx.endpoint} answered ${response.status}${type ? ` (${type})` : ""} with ${what}, not a chat completion.${retryable ? "" : " Check that OPENAI_BASE_URL (or provider.baseUrl) points at an OpenAI-compatible API; it usually ends in /v1."}`;
  return new ProviderError(retryable ? "empty_response" : "invalid_response", message, { statusCode: response.status });
}

async function readStream(body: ReadableStream<Uint8Array>, response: Response, ctx: ReadContext): Promise<void> {
  const { assembler } = ctx;
  for await (const { data } of sseDataEvents(body, response)) {
    if (data.trim() === "[DONE]") {
      ctx.onData();
      assembler.markDone();
      break;
    }
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      assembler.skip(data);
      continue;
    }
    if (typeof value === "object" && value !== null && "error" in value && (value as { error: unknown }).error) {
      throw new ProviderError("server", `The model endpoint sent an error in the stream: ${errorText((value as { error: unknown }).error)}`);
    }
    // A ping (`{}`, a scalar) keeps the connection alive but is not part of the answer.
    if (assembler.addChunk(value, data)) ctx.onData();
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
  const completion = completionSchema.safeParse(value);
  if (!completion.success) throw notACompletion(ctx, response, `JSON that is not a chat completion: ${textBody.slice(0, 120)}`, false);
  ctx.onData();
  ctx.assembler.addCompletion(completion.data);
}

/** Reads the whole response into the assembler; throws a ProviderError when it holds no answer. */
export async function readChatResponse(response: Response, ctx: ReadContext): Promise<void> {
  const peeked = await peekBody(response, { ...(ctx.onBytes ? { onBytes: ctx.onBytes } : {}) });
  try {
    if (peeked.body && peeked.isEventStream) await readStream(peeked.body, response, ctx);
    else await readPlain(peeked.body, response, ctx);
  } catch (error) {
    // Stopped before the end (an error in the stream, the output limit): let the connection go.
    peeked.body?.cancel().catch(() => undefined);
    throw error;
  }
  if (!ctx.assembler.usable) {
    // Cut off by the output limit or a filter before any answer: the same request would end the same way.
    const final = ctx.assembler.finishReason === "length" || ctx.assembler.finishReason === "content_filter";
    const hint = ctx.assembler.finishReason === "length" ? " The output limit was reached first: raise provider.maxOutputTokens." : "";
    throw new ProviderError(
      final ? "invalid_response" : "empty_response",
      `The model endpoint ${ctx.endpoint} sent no answer: ${ctx.assembler.describeEmpty()}.${hint}`,
      {
        statusCode: response.status,
      },
    );
  }
}

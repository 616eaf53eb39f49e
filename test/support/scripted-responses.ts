/**
 * Types and builders for the scripted OpenAI-compatible test server
 * (see `scripted-server.ts`). A test scripts the model's behaviour as a queue
 * of `ScriptedResponse`s; each incoming model request, on whichever wire, consumes one.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { Wire } from "./scripted-wires.js";

/** A tool call the scripted "model" makes. */
export interface ScriptedToolCall {
  /** Tool call id; defaults to `call_<completionIndex>_<toolIndex>` (unique per server). */
  id?: string;
  name: string;
  /** A string is sent verbatim (it may be invalid JSON on purpose); an object is JSON.stringify'd. */
  arguments: string | Record<string, unknown>;
}

/** Token usage reported by the scripted "model" (OpenAI field names). */
export interface ScriptedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  /** Defaults to prompt_tokens + completion_tokens. */
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
}

/** Delta field used for reasoning text: DeepSeek/vLLM use `reasoning_content`, OpenRouter/Ollama use `reasoning`. */
export type ReasoningField = "reasoning_content" | "reasoning";

/**
 * A successful assistant turn. Streamed as SSE `chat.completion.chunk`s when the
 * request has `stream: true`; otherwise rendered as one `chat.completion` object.
 *
 * Stream layout, one chunk per `data:` frame: reasoning pieces, content pieces,
 * then for each tool call a header chunk (index, id, type, name, `arguments: ""`)
 * followed by argument fragments (index + arguments only); then a chunk with
 * `delta: {}` and the finish_reason; then (if the request asked for
 * `stream_options.include_usage` and `usage !== false`) a usage chunk with
 * `choices: []`; then `data: [DONE]`. The first chunk's delta carries `role: "assistant"`.
 */
export interface StreamResponse {
  kind: "stream";
  /** Assistant content, split into `chunkSize`-character pieces. */
  text?: string;
  /** Reasoning text, streamed before the content in `delta[reasoningField]`. */
  reasoning?: string;
  /** Default "reasoning_content". */
  reasoningField?: ReasoningField;
  toolCalls?: ScriptedToolCall[];
  /** Characters (code points) per content/reasoning/arguments fragment. Default 8. */
  chunkSize?: number;
  /** Usage to report; `false` never sends usage; omitted → a rough estimate (≈ 4 chars per token). */
  usage?: ScriptedUsage | false;
  /** Default "tool_calls" when there are tool calls, else "stop". Use "length" to simulate truncation. */
  finishReason?: string;
  /** Delay between data frames in ms (default 0: write as fast as possible). */
  chunkDelayMs?: number;
  /**
   * Destroy the socket after this many data frames (`[DONE]` counts as the last
   * frame, so `dropAfterChunks: <number of chunks>` drops just before `[DONE]`).
   * On a non-streamed request: destroy the socket without a response.
   */
  dropAfterChunks?: number;
  /**
   * Send this many data frames then stall forever (until the client aborts or
   * the server closes). `server.waitForHang()` / the "hang" event report when the
   * stall point is reached. Headers are flushed first, so `create()` resolves
   * even with `hangAfterChunks: 0`. On a non-streamed request: never respond.
   */
  hangAfterChunks?: number;
  /**
   * Hold the stream after `afterChunks` data frames until `until` settles, then send the rest: a test looks at
   * a half-streamed answer (or changes something mid-stream) for as long as it needs, however loaded the
   * machine, instead of racing a delay. In-process servers only (a promise does not go through a script file).
   */
  pauses?: { afterChunks: number; until: Promise<unknown> }[];
  /** `model` field of the chunks; default: the request's model. */
  model?: string;
  /**
   * The reasoning's opaque part on the wires that have one: a Responses reasoning item's `encrypted_content`
   * (sent when the request includes `reasoning.encrypted_content`), an Anthropic thinking block's signature.
   * Default: one made from the request index and the reasoning.
   */
  encryptedContent?: string;
}

/** An HTTP error response, e.g. 429 + `{"retry-after": "0"}`, 401, 500, 400 context_length_exceeded. */
export interface ErrorResponse {
  kind: "error";
  status: number;
  /**
   * JSON body (a string is sent raw). Default: `{"error":{"message":"scripted error <status>","type":...}}`
   * with type rate_limit_error (429), authentication_error (401), invalid_request_error (other 4xx), server_error.
   */
  body?: unknown;
  headers?: Record<string, string>;
}

/** Destroy the socket without sending anything (a connection error for the client). */
export interface DropResponse {
  kind: "drop";
}

/** Never respond, not even headers (until the client aborts or the server closes). */
export interface HangResponse {
  kind: "hang";
}

/** Send `body` as JSON verbatim (e.g. a hand-written non-streamed `chat.completion`). */
export interface JsonResponse {
  kind: "json";
  body: unknown;
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
}

/**
 * A response written exactly as given, for endpoints that misbehave: malformed SSE frames, a body that is
 * not a completion (HTML, gzip, binary, nothing), or a frame repeated until the client gives up.
 */
export interface RawResponse {
  kind: "raw";
  /** Default 200. */
  status?: number;
  /** The content-type defaults to text/event-stream when there are frames (or a repeat), none otherwise. */
  headers?: Record<string, string>;
  /** Each written as `data: <frame>\n\n`. */
  frames?: string[];
  /** Written after the frames, verbatim (UTF-8). */
  body?: string;
  /** Bytes written after the frames, base64-encoded (gzip, binary). */
  bodyBase64?: string;
  /** A data frame written again and again after the rest, until the client closes the connection. */
  repeat?: string;
  /** Text written verbatim after the rest, in order, each piece `afterMs` after the one before (a slow stream). */
  timed?: { afterMs: number; text: string }[];
  /**
   * Text written verbatim every `everyMs` (an SSE comment, whitespace) from the start of the body: while the
   * timed pieces are written, then the response ends; without timed pieces, until the client closes.
   */
  keepAlive?: { text: string; everyMs: number };
}

export type ScriptedResponse = StreamResponse | ErrorResponse | DropResponse | HangResponse | JsonResponse | RawResponse;

/** Any request the server received. */
export interface RecordedRequest {
  method: string;
  /** URL pathname, e.g. "/v1/chat/completions". */
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body; the raw text when it is not JSON; undefined when empty. */
  body: unknown;
  rawBody: string;
}

/** A chat message as received (only `role` is checked by the server). */
export interface ChatMessageLike {
  role: string;
  content?: unknown;
  [key: string]: unknown;
}

/** A chat completion request body (loosely validated: an object with a `messages` array). */
export interface ChatRequestBody {
  model?: string;
  messages: ChatMessageLike[];
  tools?: unknown[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

/**
 * A model request on any wire (`POST /v1/chat/completions`, `/v1/responses` or `/v1/messages`). `body` is
 * wire-neutral: the Chat Completions shape, whatever the wire (see scripted-wires.ts); `wireBody` is the
 * body as sent.
 */
export interface CompletionRequest extends RecordedRequest {
  body: ChatRequestBody;
  /** 0-based position among completion requests. */
  index: number;
  wire: Wire;
  wireBody: unknown;
}

/** Dynamic behaviour once the queue is empty. May be async; a throw becomes a 500. */
export type Responder = (request: CompletionRequest) => ScriptedResponse | Promise<ScriptedResponse>;

type StreamOptions = Omit<StreamResponse, "kind">;

// ---------------------------------------------------------------- builders

/** A streamed text answer: `text("hi")`, `text("hi", { reasoning: "hmm", chunkSize: 2 })`. */
export function text(content: string, options: Omit<StreamOptions, "text"> = {}): StreamResponse {
  return { kind: "stream", ...options, text: content };
}

/**
 * How many content frames of a streamed `text` (split into `chunkSize` code points, no reasoning before it)
 * carry it up to the end of `marker`: the `afterChunks` of a pause that holds the stream just after it.
 */
export function chunksUpTo(text: string, marker: string, chunkSize: number): number {
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`chunksUpTo: ${JSON.stringify(marker)} is not in the text`);
  return Math.ceil([...text.slice(0, at + marker.length)].length / chunkSize);
}

/** One tool call: `toolCall("view", { path: "a.ts" })`, optionally with `{ text: "Let me look." }`. */
export function toolCall(
  name: string,
  args: string | Record<string, unknown> = {},
  options: Omit<StreamOptions, "toolCalls"> & { id?: string } = {},
): StreamResponse {
  const { id, ...rest } = options;
  return { kind: "stream", ...rest, toolCalls: [{ name, arguments: args, ...(id !== undefined ? { id } : {}) }] };
}

/** Parallel tool calls: `toolCalls([{ name: "a", arguments: {} }, { name: "b", arguments: "{}" }])`. */
export function toolCalls(calls: ScriptedToolCall[], options: Omit<StreamOptions, "toolCalls"> = {}): StreamResponse {
  return { kind: "stream", ...options, toolCalls: calls };
}

/** An OpenAI-style error body. */
export function errorBody(message: string, type = "server_error", code: string | null = null): unknown {
  return { error: { message, type, param: null, code } };
}

/** `httpError(429, { headers: { "retry-after": "0" } })`, `httpError(401, { message: "bad key" })`. */
export function httpError(
  status: number,
  options: { headers?: Record<string, string>; body?: unknown; message?: string; type?: string; code?: string } = {},
): ErrorResponse {
  const body = options.body ?? errorBody(options.message ?? `scripted error ${status}`, options.type ?? defaultErrorType(status), options.code ?? null);
  return { kind: "error", status, body, ...(options.headers ? { headers: options.headers } : {}) };
}

/** 400 `context_length_exceeded`, as OpenAI sends it. */
export function contextLengthExceeded(message = "This model's maximum context length is 8192 tokens."): ErrorResponse {
  return httpError(400, { message, type: "invalid_request_error", code: "context_length_exceeded" });
}

/** SSE data frames written verbatim: `sse('{"choices":[]}', "[DONE]")`. */
export function sse(...frames: string[]): RawResponse {
  return { kind: "raw", frames };
}

export function drop(): DropResponse {
  return { kind: "drop" };
}

export function hang(): HangResponse {
  return { kind: "hang" };
}

function defaultErrorType(status: number): string {
  if (status === 429) return "rate_limit_error";
  if (status === 401) return "authentication_error";
  if (status >= 400 && status < 500) return "invalid_request_error";
  return "server_error";
}

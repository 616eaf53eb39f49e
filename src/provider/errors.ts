/**
 * Typed provider failures. The only place that knows how the `openai` SDK and Node's sockets report
 * trouble (the Anthropic adapter maps its SDK's errors through the same functions); everything above sees a
 * ProviderError with a kind.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";

export { ProviderError, type ProviderErrorKind } from "./provider-error.js";
import { ProviderError } from "./provider-error.js";

const NETWORK_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "ERR_STREAM_PREMATURE_CLOSE",
]);
const CONTEXT_LENGTH = /context[_ ]length|maximum context|context window|too many tokens|prompt is too long|reduce the length/i;
const QUOTA = /insufficient_quota|quota|billing|credit/i;

/** Reads `retry-after-ms` or `retry-after` (seconds or an HTTP date) into milliseconds. */
export function retryAfterFromHeaders(headers: Headers | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get("retry-after");
  if (value === null || value.trim() === "") return undefined;
  if (Number.isFinite(Number(value))) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as Error & { cause?: unknown }).cause;
  }
  return undefined;
}

/** Connection failures that mean nobody is listening at the address, as opposed to a connection that broke. */
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ENOTFOUND"]);

/** What the caller knows about the request, so messages can name the endpoint, the model and the key. */
export interface RequestContext {
  endpoint?: string;
  model?: string;
  /** The API the request was for, in words (default "chat completions"). */
  api?: string;
}

function describeStatus(status: number, message: string): string {
  const text = message.replace(/^\d{3}\s*/, "");
  return `${status} ${text}`.trim();
}

/** What an HTTP error answer said, from whichever SDK: its status, message, error code and type, headers. */
export interface HttpFailure {
  status: number;
  message: string;
  /** The error body's code and type, as one string to match against ("context_length_exceeded invalid_request_error"). */
  code: string;
  headers?: Headers;
  requestId?: string;
  cause: unknown;
}

/** An HTTP error answer as a ProviderError of its kind. */
export function classifyHttpFailure(failure: HttpFailure, context: RequestContext = {}): ProviderError {
  const { status, code } = failure;
  const details = {
    statusCode: status,
    retryAfterMs: retryAfterFromHeaders(failure.headers),
    requestId: failure.requestId,
    cause: failure.cause,
  };
  const message = describeStatus(status, failure.message);
  // A sentence of its own: the credential's account of where the key came from follows it (withCredential).
  if (status === 401 || status === 403) return new ProviderError("authentication", `Authentication failed: ${message.replace(/\.$/, "")}.`, details);
  if (status === 402 || (status === 429 && QUOTA.test(code))) return new ProviderError("quota", `Quota exhausted: ${message}`, details);
  if (status === 429) return new ProviderError("rate_limit", `Rate limited: ${message}`, details);
  if (status === 413 || (status >= 400 && status < 500 && (CONTEXT_LENGTH.test(code) || CONTEXT_LENGTH.test(message)))) {
    return new ProviderError("context_length", `The conversation is too long for the model: ${message}`, details);
  }
  if (status === 404 || /model_not_found/.test(code)) {
    if (/model_not_found/.test(code) || /\bmodel\b/i.test(message)) {
      const model = context.model ? ` "${context.model}"` : "";
      return new ProviderError(
        "model_not_found",
        `The model${model} was not found at the endpoint: ${message}. Choose a model it offers with --model, AGENT_MODEL or provider.model.`,
        details,
      );
    }
    const where = context.endpoint ? ` ${context.endpoint}` : "";
    return new ProviderError(
      "not_found",
      `The endpoint${where} has no ${context.api ?? "chat completions"} API (${message}). Check OPENAI_BASE_URL or provider.baseUrl: it usually ends in /v1.`,
      details,
    );
  }
  if (status >= 500) return new ProviderError("server", `The model endpoint failed: ${message}`, details);
  return new ProviderError("bad_request", `The model endpoint rejected the request: ${message}`, details);
}

/** A request that never got an answer: nothing listening, an unknown host, a broken connection. */
export function classifyConnectionFailure(error: unknown, cause: unknown, context: RequestContext = {}): ProviderError {
  const code = errorCode(cause);
  const reason = code ? ` (${code})` : cause instanceof Error ? ` (${cause.message})` : "";
  const where = context.endpoint ? ` ${context.endpoint}` : "";
  if (code && UNREACHABLE_CODES.has(code)) {
    const why = code === "ENOTFOUND" ? "the host name is unknown" : "nothing is listening there";
    return new ProviderError(
      "network",
      `Could not connect to the model endpoint${where} (${code}: ${why}). Is the server running? Set the endpoint with OPENAI_BASE_URL or provider.baseUrl in settings.json.`,
      { cause: error, unreachable: true },
    );
  }
  return new ProviderError("network", `Could not reach the model endpoint${where}${reason}.`, { cause: error });
}

/** Anything thrown that no SDK classified: a broken socket is a network failure, the rest unknown. */
export function classifyOtherFailure(error: unknown): ProviderError {
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if ((code && NETWORK_CODES.has(code)) || /terminated|socket hang up|aborted|premature close|other side closed/i.test(message)) {
    return new ProviderError("network", `The connection to the model endpoint broke${code ? ` (${code})` : ""}: ${message}`, { cause: error });
  }
  return new ProviderError("unknown", message, { cause: error });
}

/** Maps anything thrown while calling the model (through the `openai` client) to a ProviderError. */
export function classifyProviderError(error: unknown, signal?: AbortSignal, context: RequestContext = {}): ProviderError {
  if (error instanceof ProviderError) return error;
  if (signal?.aborted || error instanceof APIUserAbortError || (error instanceof Error && error.name === "AbortError")) {
    return new ProviderError("aborted", "The request was interrupted.", { cause: error });
  }
  if (error instanceof APIConnectionTimeoutError) {
    return new ProviderError("network", "The model endpoint did not answer in time.", { cause: error });
  }
  if (error instanceof APIConnectionError) return classifyConnectionFailure(error, error.cause, context);
  if (error instanceof APIError && typeof error.status === "number") {
    const failure = {
      status: error.status,
      message: error.message,
      code: `${error.code ?? ""} ${error.type ?? ""}`,
      headers: error.headers,
      requestId: error.requestID ?? undefined,
      cause: error,
    };
    return classifyHttpFailure(failure, context);
  }
  return classifyOtherFailure(error);
}

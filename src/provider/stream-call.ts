/**
 * What every wire's model call shares around its own request and reader: a stream that sends no data for too
 * long (keep-alives do not count) is treated as a dropped connection (and retried by the caller), one that never
 * ends is stopped at the overall limit, an interrupted body is not a complete answer, a 401 with a key from a
 * command runs the command once more and tries again, and every failure is a ProviderError that names no secret.
 */
import type { AnswerAssembler, WireReader } from "./answer-assembler.js";
import { explainCredentialError, valueCredential, type Credential } from "./credentials.js";
import { ProviderError } from "./errors.js";
import { readModelResponse } from "./model-response.js";
import type { ProviderConfig } from "./provider-config.js";
import { StreamDeadlines } from "./stream-deadlines.js";
import type { ChatRequest, ChatResponse, StreamHandlers } from "./types.js";
import { monotonicMs } from "../util/monotonic-clock.js";

/** The longest a single response may stream, unless provider.responseTimeoutMs says otherwise. */
export const DEFAULT_RESPONSE_TIMEOUT_MS = 30 * 60_000;
/** Output (estimated tokens) after which a response that never finishes is cut off, when no limit is set. */
const DEFAULT_OUTPUT_GUARD_TOKENS = 100_000;

/** The endpoint was asked for at most `maxOutputTokens`; some margin for our estimate before cutting it off. */
export function outputGuard(maxOutputTokens: number | undefined): number {
  return maxOutputTokens ? Math.ceil(maxOutputTokens * 1.25) + 64 : DEFAULT_OUTPUT_GUARD_TOKENS;
}

/** The configuration's credential: its own, or one for a key given as text. */
export function credentialOf(config: ProviderConfig): Credential | undefined {
  if (config.credential) return config.credential;
  return config.apiKey ? valueCredential(config.apiKey, "apiKey", "provider.apiKey") : undefined;
}

export interface StreamAttempt {
  /** Fires on the caller's interrupt, a stream without data for too long and the overall limit. */
  signal: AbortSignal;
  /** Called for every piece of the answer: re-arms the idle timer. */
  onData(): void;
  /** Called for every piece of the body, keep-alives included: the connection is alive (said when it times out). */
  onBytes(): void;
  /** When the request was sent (monotonicMs()), for the time to the first token. */
  started: number;
}

/**
 * Runs one attempt of a model call under the configuration's deadlines (stream-deadlines.ts). `classify`
 * maps what the wire's client threw (the caller's interrupt included) to a ProviderError.
 */
export async function streamWithTimeouts<T>(
  config: ProviderConfig,
  requestSignal: AbortSignal,
  attempt: (context: StreamAttempt) => Promise<T>,
  classify: (error: unknown) => ProviderError,
): Promise<T> {
  const deadlines = new StreamDeadlines({
    idleMs: config.streamIdleTimeoutMs,
    overallMs: config.responseTimeoutMs ?? DEFAULT_RESPONSE_TIMEOUT_MS,
    signal: requestSignal,
  });
  const { signal } = deadlines;
  try {
    const result = await attempt({ signal, onData: deadlines.onData, onBytes: deadlines.onBytes, started: monotonicMs() });
    // A body cut by an abort can end quietly; an interrupted response is not a complete one.
    if (signal.aborted) throw signal.reason ?? new Error("aborted");
    return result;
  } catch (error) {
    throw deadlines.explain() ?? classify(error);
  } finally {
    deadlines.dispose();
  }
}

/**
 * Runs `call`; when it fails authentication and the credential can give another key (a command), once more.
 * The error that comes out has the credential's values scrubbed and, for a 401, names where the key came from.
 */
export async function withCredential<T>(config: ProviderConfig, credential: Credential | undefined, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.kind === "authentication" && error.statusCode !== undefined && credential?.invalidate()) {
      try {
        return await call();
      } catch (again) {
        throw again instanceof ProviderError ? explainCredentialError(again, credential, config.providerName) : again;
      }
    }
    throw explainCredentialError(error, credential, config.providerName);
  }
}

/** A wire's reader for one answer, made with the handlers and the output guard. */
export type ReaderFactory = (model: string, handlers: StreamHandlers, limits: { maxOutputTokens: number }) => AnswerAssembler & WireReader;

/**
 * One attempt of a model call on any wire: `send` makes the request (with the attempt's signal) and gives the
 * raw response, which the wire's reader reads; timeouts and error mapping as in streamWithTimeouts.
 */
export function streamAnswer(
  config: ProviderConfig,
  request: ChatRequest,
  handlers: StreamHandlers,
  io: { reader: ReaderFactory; send(signal: AbortSignal): Promise<Response>; classify(error: unknown): ProviderError },
): Promise<ChatResponse> {
  return streamWithTimeouts(
    config,
    request.signal,
    async ({ signal, onData, onBytes, started }) => {
      const reader = io.reader(config.model, handlers, { maxOutputTokens: outputGuard(config.maxOutputTokens) });
      const response = await io.send(signal);
      await readModelResponse(response, { reader, endpoint: config.baseUrl, onData, onBytes });
      return reader.response(started);
    },
    io.classify,
  );
}

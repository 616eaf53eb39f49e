/** When and how long to wait before calling the model again after a failure. Pure functions. */
import type { ProviderError } from "./errors.js";

export interface RetryPolicy {
  /** Attempts after the first. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A `retry-after` longer than this is not waited for: the call fails with the endpoint's request stated. */
  maxRetryAfterMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  maxRetries: 5,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
};

const RETRYABLE = new Set(["rate_limit", "server", "network", "empty_response"]);
/** The one retry allowed when nothing answers at the address: a server that is just starting gets a moment. */
const UNREACHABLE_RETRY_MS = 500;

export type RetryDecision = { retry: true; delayMs: number } | { retry: false; reason?: string };

/**
 * `attempt` counts retries already made (0 after the first failure). `random` is in [0, 1).
 * `unreachableSoFar`: every earlier attempt of this call also found nothing listening; then an unreachable
 * endpoint gets one quick retry, not the whole backoff (a refused connection does not heal in 20 s).
 */
export function decideRetry(error: ProviderError, attempt: number, policy: RetryPolicy, random: number, unreachableSoFar = true): RetryDecision {
  if (!RETRYABLE.has(error.kind)) return { retry: false };
  if (error.details.unreachable && unreachableSoFar) {
    if (attempt >= Math.min(1, policy.maxRetries)) return { retry: false, reason: `no answer after ${attempt + 1} attempt${attempt === 0 ? "" : "s"}` };
    return { retry: true, delayMs: Math.min(policy.baseDelayMs, UNREACHABLE_RETRY_MS) };
  }
  if (attempt >= policy.maxRetries) return { retry: false, reason: `gave up after ${attempt + 1} attempts` };
  const retryAfter = error.retryAfterMs;
  if (retryAfter !== undefined) {
    if (retryAfter > policy.maxRetryAfterMs) {
      return { retry: false, reason: `the endpoint asks to wait ${Math.ceil(retryAfter / 1000)} s before retrying` };
    }
    return { retry: true, delayMs: retryAfter };
  }
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  // Full jitter on the upper half keeps retries from many clients apart without waiting needlessly long.
  return { retry: true, delayMs: Math.round(exponential / 2 + (exponential / 2) * random) };
}

/** Resolves after `ms`, or rejects at once when the signal fires. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

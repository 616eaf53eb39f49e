import { APIConnectionError } from "openai";
import { describe, expect, it } from "vitest";
import { classifyProviderError, ProviderError, retryAfterFromHeaders } from "../../src/provider/errors.js";
import { decideRetry, defaultRetryPolicy } from "../../src/provider/retry.js";

describe("retry decisions", () => {
  const policy = { ...defaultRetryPolicy, maxRetries: 3, baseDelayMs: 1000, maxDelayMs: 8000 };
  it("backs off exponentially with jitter in the upper half", () => {
    const error = new ProviderError("server", "boom");
    expect(decideRetry(error, 0, policy, 0)).toEqual({ retry: true, delayMs: 500 });
    expect(decideRetry(error, 0, policy, 0.999)).toMatchObject({ retry: true });
    expect(decideRetry(error, 2, policy, 1)).toEqual({ retry: true, delayMs: 4000 });
    expect(decideRetry(error, 5, { ...policy, maxRetries: 10 }, 1)).toEqual({ retry: true, delayMs: 8000 });
  });
  it("stops at the budget, and never retries what cannot succeed", () => {
    expect(decideRetry(new ProviderError("network", "x"), 3, policy, 0)).toMatchObject({ retry: false });
    for (const kind of ["authentication", "quota", "context_length", "bad_request", "aborted"] as const) {
      expect(decideRetry(new ProviderError(kind, "x"), 0, policy, 0)).toEqual({ retry: false });
    }
  });
  it("uses retry-after when given, within the allowed wait", () => {
    expect(decideRetry(new ProviderError("rate_limit", "x", { retryAfterMs: 2500 }), 0, policy, 0)).toEqual({ retry: true, delayMs: 2500 });
    expect(decideRetry(new ProviderError("rate_limit", "x", { retryAfterMs: 10 * 60_000 }), 0, policy, 0)).toMatchObject({ retry: false });
  });
});

describe("retry-after parsing", () => {
  it("reads seconds, milliseconds and HTTP dates", () => {
    expect(retryAfterFromHeaders(new Headers({ "retry-after": "3" }))).toBe(3000);
    expect(retryAfterFromHeaders(new Headers({ "retry-after-ms": "250", "retry-after": "3" }))).toBe(250);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterFromHeaders(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }), now)).toBe(5000);
    expect(retryAfterFromHeaders(new Headers({}))).toBeUndefined();
    expect(retryAfterFromHeaders(new Headers({ "retry-after": "soon" }))).toBeUndefined();
  });
});

describe("error classification", () => {
  it("maps socket errors to network and aborts to aborted", () => {
    const reset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
    expect(classifyProviderError(reset).kind).toBe("network");
    expect(classifyProviderError(new TypeError("terminated")).kind).toBe("network");
    const controller = new AbortController();
    controller.abort();
    expect(classifyProviderError(new Error("whatever"), controller.signal).kind).toBe("aborted");
    expect(classifyProviderError(new Error("strange")).kind).toBe("unknown");
  });

  it("marks a refused connection and an unknown host as unreachable, naming the endpoint", () => {
    for (const code of ["ECONNREFUSED", "ENOTFOUND"]) {
      const cause = Object.assign(new Error(`connect ${code}`), { code });
      const error = classifyProviderError(new APIConnectionError({ cause }), undefined, { endpoint: "http://models.invalid/v1" });
      expect(error.kind).toBe("network");
      expect(error.details.unreachable).toBe(true);
      expect(error.message).toContain("http://models.invalid/v1");
      expect(error.message).toContain(code);
    }
    const reset = Object.assign(new Error("reset"), { code: "ECONNRESET" });
    expect(classifyProviderError(new APIConnectionError({ cause: reset })).details.unreachable).toBeUndefined();
  });
});

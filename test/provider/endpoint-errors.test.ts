/** Errors that name the endpoint or the model, and an unreachable endpoint given up on quickly. */
import { afterEach, describe, expect, it } from "vitest";
import { valueCredential } from "../../src/provider/credentials.js";
import { ProviderError } from "../../src/provider/errors.js";
import { decideRetry, defaultRetryPolicy } from "../../src/provider/retry.js";
import { startHarness, type Harness } from "../support/engine-harness.js";
import { drop, httpError, startScriptedServer, text } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("an endpoint nobody answers at", () => {
  it("gets one quick retry, then an error naming the URL and how to configure it", async () => {
    const closed = await startScriptedServer();
    await closed.close();
    harness = await startHarness({ server: closed, retry: { maxRetries: 5, baseDelayMs: 1000 } });
    const result = await harness.session.send("hi");
    expect(result.error?.kind).toBe("network");
    expect(harness.ofType("assistant.turn_retry")).toHaveLength(1);
    expect(harness.ofType("assistant.turn_retry")[0]?.data.delayMs).toBeLessThanOrEqual(500);
    const message = harness.ofType("session.error")[0]?.data.message ?? "";
    expect(message).toContain(closed.baseUrl);
    expect(message).toMatch(/ECONNREFUSED/);
    expect(message).toMatch(/OPENAI_BASE_URL/);
    expect(harness.session.metrics.requests).toBe(2);
  });

  it("keeps the full backoff for failures that can heal", () => {
    const policy = { ...defaultRetryPolicy, maxRetries: 5 };
    const refused = new ProviderError("network", "x", { unreachable: true });
    expect(decideRetry(refused, 0, policy, 0)).toEqual({ retry: true, delayMs: 500 });
    expect(decideRetry(refused, 1, policy, 0)).toMatchObject({ retry: false });
    // Refused after an attempt that did connect (a server restarting): the normal policy.
    expect(decideRetry(refused, 1, policy, 0, false)).toMatchObject({ retry: true });
    expect(decideRetry(new ProviderError("network", "reset"), 3, policy, 0)).toMatchObject({ retry: true });
  });

  it("still retries a reset connection and 5xx as before", async () => {
    harness = await startHarness({ retry: { maxRetries: 3 } });
    harness.server.enqueue(drop(), httpError(502), drop(), text("back"));
    const result = await harness.session.send("hi");
    expect(result.finalMessage).toBe("back");
    expect(harness.session.metrics.requests).toBe(4);
  });
});

describe("404", () => {
  it("for an unknown model is model_not_found, naming the model", async () => {
    harness = await startHarness();
    harness.server.enqueue(httpError(404, { message: "The model `scripted-model` does not exist", code: "model_not_found" }));
    const result = await harness.session.send("hi");
    expect(result.error?.kind).toBe("model_not_found");
    expect(harness.ofType("session.error")[0]?.data).toMatchObject({ errorType: "model_not_found", statusCode: 404 });
    expect(harness.ofType("session.error")[0]?.data.message).toMatch(/The model "scripted-model" was not found/);
    expect(harness.server.completionRequests).toHaveLength(1);
  });

  it("as Ollama words it (no code) is model_not_found too", async () => {
    harness = await startHarness();
    harness.server.enqueue(httpError(404, { message: 'model "scripted-model" not found, try pulling it first', type: "api_error" }));
    expect((await harness.session.send("hi")).error?.kind).toBe("model_not_found");
  });

  it("for the path itself says the base URL is wrong", async () => {
    harness = await startHarness();
    harness.server.enqueue(httpError(404, { message: "404 page not found", type: "not_found" }));
    const result = await harness.session.send("hi");
    expect(result.error?.kind).toBe("not_found");
    expect(harness.ofType("session.error")[0]?.data.message).toMatch(/ends in \/v1/);
  });
});

describe("request counts", () => {
  it("counts a request interrupted mid-stream", async () => {
    harness = await startHarness();
    harness.server.enqueue({ kind: "stream", text: "a long answer", chunkSize: 2, hangAfterChunks: 3 });
    const running = harness.session.send("hi");
    await harness.server.waitForHang();
    harness.session.interrupt();
    const result = await running;
    expect(result.outcome).toBe("aborted");
    expect(harness.session.metrics.requests).toBe(1);
  });
});

describe("a refused key", () => {
  it.each([
    [401, "OPENAI_API_KEY", /Authentication failed: 401 bad key\. The API key came from OPENAI_API_KEY; check that it is right for this endpoint\.$/],
    [403, "provider.apiKey in /h/settings.json", /The API key came from provider\.apiKey in \/h\/settings\.json; check .* and allowed to use this model\.$/],
    [
      401,
      undefined,
      /No API key was sent: set OPENAI_API_KEY \(or COPILOT_PROVIDER_API_KEY\), or provider\.apiKey or provider\.apiKeyEnv in settings\.json\.$/,
    ],
  ])("%i names where the key came from (%s)", async (status, source, message) => {
    const server = await startScriptedServer();
    harness = await startHarness({ server, provider: source ? { credential: valueCredential("test-key", "apiKey", source) } : { apiKey: undefined } });
    server.enqueue(httpError(status, { message: "bad key" }));
    const result = await harness.session.send("hi");
    await server.close();
    expect(result.error?.kind).toBe("authentication");
    expect(harness.ofType("session.error")[0]?.data.message).toMatch(message);
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../support/engine-harness.js";
import { contextLengthExceeded, drop, httpError, text, toolCall } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("provider errors and retries, through the real openai client", () => {
  it("retries a 429 honouring retry-after, inside the same turn", async () => {
    harness = await startHarness();
    harness.server.enqueue(httpError(429, { headers: { "retry-after": "0.01" } }), text("ok after waiting"));
    const result = await harness.session.send("hi");
    expect(result.outcome).toBe("completed");
    expect(harness.server.completionRequests).toHaveLength(2);
    expect(harness.ofType("assistant.turn_start")).toHaveLength(1);
    const retry = harness.ofType("assistant.turn_retry")[0];
    expect(retry?.data).toMatchObject({ turnId: "1", attempt: 1, delayMs: 10 });
    expect(retry?.data.reason).toMatch(/Rate limited/);
    expect(retry?.ephemeral).toBe(true);
  });

  it("retries a 500 and a connection dropped before the response", async () => {
    harness = await startHarness();
    harness.server.enqueue(httpError(500), drop(), text("third time lucky"));
    const result = await harness.session.send("hi");
    expect(result.finalMessage).toBe("third time lucky");
    expect(harness.ofType("assistant.turn_retry").map((event) => event.data.attempt)).toEqual([1, 2]);
  });

  it("retries a socket dropped mid-stream and tells subscribers which attempt was abandoned", async () => {
    harness = await startHarness();
    harness.server.enqueue({ kind: "stream", text: "This answer will be cut off", chunkSize: 4, dropAfterChunks: 3 }, text("A complete answer."));
    const result = await harness.session.send("hi");
    expect(result.finalMessage).toBe("A complete answer.");
    const retry = harness.ofType("assistant.turn_retry")[0];
    const deltas = harness.ofType("assistant.message_delta");
    const abandoned = deltas.filter((event) => event.data.messageId === retry?.data.abandonedMessageId);
    expect(abandoned.length).toBeGreaterThan(0);
    const kept = harness.ofType("assistant.message")[0];
    expect(kept?.data.messageId).not.toBe(retry?.data.abandonedMessageId);
    expect(harness.ofType("assistant.message")).toHaveLength(1);
  });

  it("gives up after the retry budget and reports session.error with type and status", async () => {
    harness = await startHarness({ retry: { maxRetries: 2 } });
    harness.server.enqueue(httpError(503), httpError(503), httpError(503), text("never reached"));
    const result = await harness.session.send("hi");
    expect(result.outcome).toBe("error");
    expect(harness.server.completionRequests).toHaveLength(3);
    const error = harness.ofType("session.error")[0];
    expect(error?.data).toMatchObject({ errorType: "server", statusCode: 503 });
    expect(error?.data.message).toMatch(/gave up after 3 attempts/);
    expect(harness.types().slice(-3)).toEqual(["session.error", "assistant.turn_end", "session.idle"]);
  });

  it("does not retry authentication failures", async () => {
    harness = await startHarness();
    harness.server.enqueue(httpError(401, { message: "invalid api key" }));
    const result = await harness.session.send("hi");
    expect(result.error).toMatchObject({ kind: "authentication", statusCode: 401 });
    expect(harness.server.completionRequests).toHaveLength(1);
  });

  it("types context-length and quota errors", async () => {
    harness = await startHarness();
    harness.server.enqueue(contextLengthExceeded(), httpError(429, { code: "insufficient_quota", message: "You exceeded your current quota" }));
    expect((await harness.session.send("a")).error?.kind).toBe("context_length");
    expect((await harness.session.send("b")).error?.kind).toBe("quota");
    expect(harness.server.completionRequests).toHaveLength(2);
  });

  it("does not wait out a retry-after longer than the policy allows", async () => {
    harness = await startHarness({ retry: { maxRetryAfterMs: 1000 } });
    harness.server.enqueue(httpError(429, { headers: { "retry-after": "7200" } }));
    const result = await harness.session.send("hi");
    expect(result.error?.kind).toBe("rate_limit");
    expect(harness.ofType("session.error")[0]?.data.message).toMatch(/asks to wait 7200 s/);
    expect(harness.server.completionRequests).toHaveLength(1);
  });

  it("stops autopilot on an error instead of spending continuations", async () => {
    harness = await startHarness({ mode: "autopilot", retry: { maxRetries: 0 } });
    harness.server.enqueue(httpError(500), text("unused"));
    const result = await harness.session.send("hi");
    expect(result.outcome).toBe("error");
    expect(harness.ofType("session.autopilot_stopped")[0]?.data.reason).toBe("error");
    expect(harness.server.completionRequests).toHaveLength(1);
  });

  it("streams reasoning, records it, and reports usage", async () => {
    harness = await startHarness();
    harness.server.enqueue(
      text("The answer is 4.", { reasoning: "two plus two", usage: { prompt_tokens: 120, completion_tokens: 7 } }),
      text("Same again.", { reasoning: "again", reasoningField: "reasoning" }),
    );
    await harness.session.send("2+2?");
    await harness.session.send("again?");
    expect(
      harness
        .ofType("assistant.reasoning_delta")
        .map((event) => event.data.deltaContent)
        .join(""),
    ).toBe("two plus twoagain");
    expect(harness.ofType("assistant.reasoning").map((event) => event.data.content)).toEqual(["two plus two", "again"]);
    expect(harness.ofType("assistant.usage")[0]?.data).toMatchObject({ model: "scripted-model", inputTokens: 120, outputTokens: 7, isByok: true });
    expect(harness.ofType("session.usage_info")[0]?.data).toMatchObject({ tokenLimit: 128_000, currentTokens: 127 });
    expect(harness.session.metrics.tokens.inputTokens).toBeGreaterThanOrEqual(120);
  });

  it("assembles tool-call arguments split across many chunks", async () => {
    harness = await startHarness();
    const command = "echo 'a fairly long command that is split into many small pieces'";
    harness.server.enqueue(toolCall("bash", { command, description: "Echo" }, { chunkSize: 3 }), text("done"));
    await harness.session.send("echo");
    expect(harness.ofType("tool.execution_start")[0]?.data.arguments).toEqual({ command, description: "Echo" });
    expect(harness.ofType("tool.execution_complete")[0]?.data.result?.content).toContain("a fairly long command");
  });

  it("sends stream_options.include_usage and the tools as functions", async () => {
    harness = await startHarness();
    harness.server.enqueue(text("hi"));
    await harness.session.send("hi");
    const body = harness.server.completionRequests[0]?.body;
    expect(body?.stream).toBe(true);
    expect(body?.stream_options).toEqual({ include_usage: true });
    expect(body?.model).toBe("scripted-model");
    expect(harness.server.completionRequests[0]?.headers.authorization).toBe("Bearer test-key");
  });
});

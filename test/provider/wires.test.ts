/**
 * The same engine behaviour on each wire (Chat Completions, the Responses API, Anthropic Messages), through
 * each provider's official client and the scripted server: streamed text, a tool call's round trip, usage,
 * retries and typed errors, the length outcome, an interrupt, and reasoning kept in the log and passed back
 * (live and after a resume) in the wire's own way.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startHarness, waitForEvent, type Harness } from "../support/engine-harness.js";
import { useHarnesses } from "../support/harnesses.js";
import { contextLengthExceeded, httpError, text, toolCall, WIRES, type ChatMessageLike } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});
const harnesses = useHarnesses();

const assistantOf = (messages: ChatMessageLike[]) => messages.find((message) => message.role === "assistant");

describe.each(WIRES)("on the %s wire", (wire) => {
  it("streams text and reports usage", async () => {
    harness = await startHarness({ wire });
    harness.server.enqueue(text("Hello from the model, in pieces.", { chunkSize: 3, usage: { prompt_tokens: 40, completion_tokens: 9 } }));
    const result = await harness.session.send("hi");
    expect(result.finalMessage).toBe("Hello from the model, in pieces.");
    const deltas = harness.ofType("assistant.message_delta");
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.map((event) => event.data.deltaContent).join("")).toBe("Hello from the model, in pieces.");
    expect(harness.ofType("assistant.usage")[0]?.data).toMatchObject({ inputTokens: 40, outputTokens: 9 });
    expect(harness.server.completionRequests[0]?.wire).toBe(wire);
  });

  it("runs a tool call's round trip: the call, its result sent back, the answer", async () => {
    harness = await startHarness({ wire, allowAllTools: true });
    const file = path.join(harness.cwd, "a.txt");
    writeFileSync(file, "kiwi\n");
    harness.server.enqueue(toolCall("view", { path: file }, { text: "Let me look.", chunkSize: 4 }), text("It says kiwi."));
    const result = await harness.session.send("what is in a.txt?");
    expect(result.finalMessage).toBe("It says kiwi.");
    expect(harness.ofType("tool.execution_start")[0]?.data).toMatchObject({ toolName: "view", arguments: { path: file } });
    const second = harness.server.completionRequests[1]?.body.messages ?? [];
    expect(second.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(assistantOf(second)?.tool_calls).toEqual([
      { id: "call_0_0", type: "function", function: { name: "view", arguments: JSON.stringify({ path: file }) } },
    ]);
    expect(String(second[3]?.content)).toContain("kiwi");
  });

  it("retries a 429 and a 500, and types a context-length error", async () => {
    harness = await startHarness({ wire });
    harness.server.enqueue(httpError(429, { headers: { "retry-after": "0" } }), httpError(500), text("third time"), contextLengthExceeded());
    expect((await harness.session.send("a")).finalMessage).toBe("third time");
    expect(harness.ofType("assistant.turn_retry")).toHaveLength(2);
    expect((await harness.session.send("b")).error?.kind).toBe("context_length");
  });

  it("sends the key as the wire wants it: Authorization, or x-api-key for Anthropic; none when none is configured", async () => {
    harness = await startHarness({ wire });
    harness.server.enqueue(text("one"));
    await harness.session.send("hi");
    const headers = harness.server.completionRequests[0]?.headers;
    if (wire === "anthropic") expect([headers?.["x-api-key"], headers?.authorization]).toEqual(["test-key", undefined]);
    else expect([headers?.["x-api-key"], headers?.authorization]).toEqual([undefined, "Bearer test-key"]);
    await harness.close();
    harness = await startHarness({ wire, provider: { apiKey: undefined } });
    harness.server.enqueue(text("two"));
    expect((await harness.session.send("hi")).finalMessage).toBe("two");
    if (wire === "anthropic") expect(harness.server.completionRequests[0]?.headers["x-api-key"]).toBeUndefined();
  });

  it("sends the reasoning effort in the wire's own way", async () => {
    harness = await startHarness({ wire, provider: { reasoningEffort: "high" } });
    harness.server.enqueue(text("thought hard"));
    await harness.session.send("hi");
    const expected = {
      chat: { reasoning_effort: "high" },
      responses: { reasoning: { effort: "high", summary: "auto" } },
      anthropic: { thinking: { type: "enabled", budget_tokens: 16_384 } },
    }[wire];
    expect(harness.server.completionRequests[0]?.wireBody).toMatchObject(expected);
  });

  it("does not retry a 401, and says where the key came from", async () => {
    harness = await startHarness({ wire });
    harness.server.enqueue(httpError(401, { message: "invalid x-api-key" }), text("unused"));
    const result = await harness.session.send("hi");
    expect(result.error?.kind).toBe("authentication");
    expect(harness.ofType("session.error")[0]?.data.message).toMatch(
      /^Authentication failed: 401 invalid x-api-key\. The API key came from provider\.apiKey; check that it is right for this endpoint\.$/,
    );
    expect(harness.server.completionRequests).toHaveLength(1);
  });

  it("marks an answer cut at the output limit as truncated, so the loop has it continued as one answer", async () => {
    harness = await startHarness({ wire });
    harness.server.enqueue(text("A long answer that was ", { finishReason: "length" }), text("cut, then continued."));
    const result = await harness.session.send("hi");
    expect(result.finalMessage).toBe("A long answer that was cut, then continued.");
    expect(harness.ofType("assistant.message").map((event) => event.data.finishReason)).toEqual(["length", "stop"]);
    expect(harness.ofType("system.notification")[0]?.data.kind).toBe("output_limit");
  });

  it("stops a streaming answer when interrupted and keeps what arrived", async () => {
    harness = await startHarness({ wire });
    harness.server.enqueue({ kind: "stream", text: "Partial answer that never ends", chunkSize: 4, hangAfterChunks: 3 });
    const sent = harness.session.send("hi");
    await harness.server.waitForHang();
    await waitForEvent(harness, (event) => event.type === "assistant.message_delta");
    harness.session.interrupt();
    expect((await sent).outcome).toBe("aborted");
    expect(harness.ofType("assistant.message")[0]?.data).toMatchObject({ interrupted: true, content: "Partial answ" });
  });

  it("keeps the reasoning in the log and passes it back, live and after a resume", async () => {
    const server = await harnesses.sharedServer();
    const first = await harnesses.start({ wire, server, allowAllTools: true });
    const file = path.join(first.cwd, "a.txt");
    writeFileSync(file, "kiwi\n");
    server.enqueue(toolCall("view", { path: file }, { reasoning: "I should read it.", encryptedContent: "sealed-1" }), text("Kiwi."));
    await first.session.send("read a.txt");
    const message = first.ofType("assistant.message")[0]?.data;
    expect(message?.reasoningText).toBe("I should read it.");
    expect(first.ofType("assistant.reasoning")[0]?.data.content).toBe("I should read it.");
    const passedBack = assistantOf(server.completionRequests[1]?.body.messages ?? []);
    if (wire === "responses") {
      expect(message?.encryptedContent).toBe("sealed-1");
      expect(passedBack?.reasoning_items).toEqual([
        { type: "reasoning", summary: [{ type: "summary_text", text: "I should read it." }], encrypted_content: "sealed-1" },
      ]);
      expect(server.completionRequests[0]?.wireBody).toMatchObject({ store: false, include: ["reasoning.encrypted_content"] });
    } else if (wire === "anthropic") {
      expect(message?.reasoningOpaque).toBe("sealed-1");
    } else {
      expect(passedBack?.reasoning_items).toBeUndefined();
    }
    const log = readFileSync(first.store.eventsFileOf(first.session.id), "utf8");
    if (wire === "responses") expect(log).toContain('"encryptedContent":"sealed-1"');
    const id = first.session.id;
    first.session.shutdown();

    const resumed = await harnesses.start({ wire, server, home: first.home, cwd: first.cwd, resumeId: id });
    server.enqueue(text("Still kiwi."));
    await resumed.session.send("and now?");
    const again = assistantOf(server.completionRequests.at(-1)?.body.messages ?? []);
    expect(again?.reasoning_items).toEqual(passedBack?.reasoning_items);
  });
});

describe("reasoning passed back on the Anthropic wire", () => {
  it("sends the thinking blocks back with their signatures when thinking is on", async () => {
    harness = await startHarness({ wire: "anthropic", allowAllTools: true, provider: { reasoningEffort: "low" } });
    harness.server.enqueue(toolCall("glob", { pattern: "*.none" }, { reasoning: "Search first.", encryptedContent: "sig-1" }), text("Nothing."));
    await harness.session.send("find it");
    const [first, second] = harness.server.completionRequests;
    expect(first?.wireBody).toMatchObject({ thinking: { type: "enabled", budget_tokens: 2048 } });
    expect(assistantOf(second?.body.messages ?? [])?.reasoning_items).toEqual([{ type: "thinking", thinking: "Search first.", signature: "sig-1" }]);
  });

  it("marks the system prompt, the tools and the conversation for prompt caching", async () => {
    harness = await startHarness({ wire: "anthropic" });
    harness.server.enqueue(text("ok"));
    await harness.session.send("hi");
    const body = harness.server.completionRequests[0]?.wireBody as {
      system: { cache_control?: unknown }[];
      tools: { cache_control?: unknown }[];
      messages: { content: { cache_control?: unknown }[] }[];
    };
    expect(body.system.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
    expect(body.tools.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
    expect(body.tools.slice(0, -1).every((tool) => tool.cache_control === undefined)).toBe(true);
    expect(body.messages.at(-1)?.content.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
  });
});

describe("endpoint quirks", () => {
  it("Responses: a 400 refusing the reasoning parameters sends the request again without them, and they stay off", async () => {
    harness = await startHarness({ wire: "responses", retry: { maxRetries: 0 } });
    harness.server.enqueue(httpError(400, { message: "Encrypted content is not supported with this model." }), text("plain"), text("again"));
    expect((await harness.session.send("hi")).finalMessage).toBe("plain");
    await harness.session.send("more");
    const bodies = harness.server.completionRequests.map((request) => request.wireBody as Record<string, unknown>);
    expect(bodies.map((body) => "include" in body)).toEqual([true, false, false]);
    expect(bodies.every((body) => body.store === false)).toBe(true);
  });

  it("Anthropic: a max_tokens above the model's maximum is sent again with the maximum the 400 names", async () => {
    harness = await startHarness({ wire: "anthropic", retry: { maxRetries: 0 } });
    harness.server.enqueue(
      httpError(400, { message: "max_tokens: 32000 > 8192, which is the maximum allowed number of output tokens for claude-x" }),
      text("fits"),
    );
    expect((await harness.session.send("hi")).finalMessage).toBe("fits");
    expect(harness.server.completionRequests.map((request) => (request.wireBody as { max_tokens: number }).max_tokens)).toEqual([32_000, 8192]);
  });

  it("Anthropic: thinking the model refuses is turned off, and one that wants adaptive thinking gets it", async () => {
    harness = await startHarness({ wire: "anthropic", retry: { maxRetries: 0 }, provider: { reasoningEffort: "medium" } });
    harness.server.enqueue(
      httpError(400, { message: "thinking.type=enabled is not supported for this model; use thinking.type=adaptive" }),
      text("adaptive"),
      httpError(400, { message: "thinking is not supported" }),
      text("no thinking"),
    );
    expect((await harness.session.send("a")).finalMessage).toBe("adaptive");
    expect((await harness.session.send("b")).finalMessage).toBe("no thinking");
    const thinking = harness.server.completionRequests.map((request) => (request.wireBody as { thinking?: { type: string } }).thinking?.type);
    expect(thinking).toEqual(["enabled", "adaptive", "adaptive", undefined]);
    expect(harness.server.completionRequests[1]?.wireBody).toMatchObject({ output_config: { effort: "medium" } });
  });

  it("Anthropic: a base URL ending in /v1 is not doubled", async () => {
    harness = await startHarness({ wire: "anthropic" });
    harness.server.enqueue(text("ok"));
    await harness.session.send("hi");
    expect(harness.server.completionRequests[0]?.path).toBe("/v1/messages");
  });
});

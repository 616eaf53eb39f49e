import OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { collect, streamRequest } from "./scripted-test-helpers.js";
import {
  contextLengthExceeded,
  drop,
  hang,
  httpError,
  startScriptedServer,
  text,
  toolCall,
  toolCalls,
  type ResponseInfo,
  type ScriptedServer,
} from "./scripted-server.js";

let server: ScriptedServer;
let client: OpenAI;

beforeEach(async () => {
  server = await startScriptedServer();
  client = new OpenAI({ baseURL: server.baseUrl, apiKey: "test", maxRetries: 0 });
});
afterEach(async () => {
  await server.close();
});

const create = (content = "hi") => client.chat.completions.create(streamRequest(content));

describe("streamed responses through the openai client", () => {
  it("reassembles text split into chunks, role first, finish_reason stop", async () => {
    const message = "Hello, world! This is a longer message with ünïcödé 🎉.";
    server.enqueue(text(message, { chunkSize: 5 }));
    const result = await collect(await create());
    expect(result.content).toBe(message);
    expect(result.contentChunks).toBeGreaterThan(5);
    expect(result.chunks[0]?.choices[0]?.delta.role).toBe("assistant");
    expect(result.finishReason).toBe("stop");
    expect(result.chunks[0]?.object).toBe("chat.completion.chunk");
    expect(result.chunks[0]?.model).toBe("m");
    expect(server.pending).toBe(0);
  });

  it("reassembles a tool call whose arguments are split across chunks", async () => {
    server.enqueue(toolCall("view", { path: "src/a.ts", view_range: [1, 20] }, { chunkSize: 4, text: "Let me look." }));
    const result = await collect(await create());
    expect(result.content).toBe("Let me look.");
    expect(result.finishReason).toBe("tool_calls");
    expect(result.toolCalls).toEqual([{ id: "call_0_0", name: "view", arguments: '{"path":"src/a.ts","view_range":[1,20]}' }]);
    const fragments = result.chunks.filter((c) => c.choices[0]?.delta.tool_calls?.[0]?.id === undefined && c.choices[0]?.delta.tool_calls);
    expect(fragments.length).toBeGreaterThan(3);
  });

  it("reassembles two parallel tool calls with their ids", async () => {
    server.enqueue(
      toolCalls([
        { id: "call_a", name: "bash", arguments: { command: "ls -la", description: "List" } },
        { name: "view", arguments: '{"path":"README.md"}' },
      ]),
    );
    const result = await collect(await create());
    expect(result.toolCalls).toEqual([
      { id: "call_a", name: "bash", arguments: '{"command":"ls -la","description":"List"}' },
      { id: "call_0_1", name: "view", arguments: '{"path":"README.md"}' },
    ]);
  });

  it("sends the usage chunk (choices: []) when include_usage is set", async () => {
    server.enqueue(text("ok", { usage: { prompt_tokens: 11, completion_tokens: 7 } }), text("estimated"), text("none", { usage: false }));
    const explicit = await collect(await create());
    expect(explicit.usageChunk?.choices).toEqual([]);
    expect(explicit.usage).toEqual({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 });
    const estimated = await collect(await create());
    expect(estimated.usage?.prompt_tokens).toBeGreaterThan(0);
    expect(estimated.usage?.completion_tokens).toBeGreaterThan(0);
    expect((await collect(await create())).usage).toBeUndefined();
  });

  it("omits usage when the request did not ask for it", async () => {
    server.enqueue(text("ok"));
    const stream = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }], stream: true });
    expect((await collect(stream)).usage).toBeUndefined();
  });

  it("streams reasoning first as reasoning_content (or reasoning)", async () => {
    server.enqueue(text("Answer.", { reasoning: "Thinking hard about it.", chunkSize: 6 }), text("B", { reasoning: "hmm", reasoningField: "reasoning" }));
    const first = await collect(await create());
    expect(first.reasoning).toBe("Thinking hard about it.");
    expect(first.content).toBe("Answer.");
    const firstDelta = first.chunks[0]?.choices[0]?.delta as Record<string, unknown> | undefined;
    expect(firstDelta?.["reasoning_content"]).toBe("Thinki");
    const second = await collect(await create());
    expect(second.reasoningViaAltField).toBe("hmm");
  });

  it("paces chunks with chunkDelayMs and still reassembles", async () => {
    server.enqueue(toolCall("bash", { command: "echo hi" }, { chunkDelayMs: 1, chunkSize: 3 }));
    expect((await collect(await create())).toolCalls[0]?.arguments).toBe('{"command":"echo hi"}');
  });

  it("renders a stream response as a chat.completion for non-streamed requests", async () => {
    server.enqueue(toolCall("view", { path: "a" }, { text: "Looking." }));
    const completion = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "x" }] });
    expect(completion.choices[0]?.message.content).toBe("Looking.");
    expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({ id: "call_0_0", function: { name: "view", arguments: '{"path":"a"}' } });
    expect(completion.choices[0]?.finish_reason).toBe("tool_calls");
  });
});

describe("errors and broken connections", () => {
  it("surfaces 429 with retry-after as RateLimitError", async () => {
    server.enqueue(httpError(429, { headers: { "retry-after": "0" }, message: "slow down" }));
    const error = await create().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    const rateLimit = error as InstanceType<typeof OpenAI.RateLimitError>;
    expect(rateLimit.status).toBe(429);
    expect(rateLimit.headers.get("retry-after")).toBe("0");
    expect(rateLimit.message).toContain("slow down");
  });

  it("surfaces 500 as InternalServerError, 401 as AuthenticationError, context overflow as BadRequestError", async () => {
    server.enqueue(httpError(500), httpError(401));
    await expect(create()).rejects.toBeInstanceOf(OpenAI.InternalServerError);
    await expect(create()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    server.enqueue({ kind: "error", status: 429 });
    await expect(create()).rejects.toMatchObject({ status: 429, type: "rate_limit_error" });
    server.enqueue(contextLengthExceeded());
    await expect(create()).rejects.toMatchObject({ status: 400, code: "context_length_exceeded" });
  });

  it("makes the iteration throw when the socket drops mid-stream", async () => {
    server.enqueue(text("this will never finish", { chunkSize: 2, dropAfterChunks: 3 }));
    const outcome = new Promise<ResponseInfo>((resolve) => server.on("response", resolve));
    const stream = await create();
    await expect(collect(stream)).rejects.toThrow();
    expect((await outcome).outcome).toBe("dropped");
  });

  it("rejects create() with a connection error on a drop before any response", async () => {
    server.enqueue(drop());
    await expect(create()).rejects.toBeInstanceOf(OpenAI.APIConnectionError);
  });

  it("hang before headers + abort rejects with APIUserAbortError; the server stays healthy", async () => {
    server.enqueue(hang(), text("next"));
    const controller = new AbortController();
    const pending = client.chat.completions.create(streamRequest("x"), { signal: controller.signal });
    const info = await server.waitForHang();
    expect(info.chunksSent).toBe(0);
    const closed = new Promise<ResponseInfo>((resolve) => server.on("response", resolve));
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(OpenAI.APIUserAbortError);
    expect((await closed).outcome).toBe("aborted");
    expect((await collect(await create())).content).toBe("next");
  });

  it("hang mid-stream + abort ends the stream early (openai SDK ends iteration silently); server stays healthy", async () => {
    server.enqueue(text("abcdefghijklmnop", { chunkSize: 4, hangAfterChunks: 2 }), text("after"));
    const controller = new AbortController();
    const stream = await client.chat.completions.create(streamRequest("x"), { signal: controller.signal });
    const iterator = stream[Symbol.asyncIterator]();
    const received: ChatCompletionChunk[] = [];
    for (let i = 0; i < 2; i++) {
      const next = await iterator.next();
      if (!next.done) received.push(next.value);
    }
    expect((await server.waitForHang()).chunksSent).toBe(2);
    const rest = iterator.next();
    controller.abort();
    await expect(rest).resolves.toMatchObject({ done: true });
    expect(received.map((c) => c.choices[0]?.delta.content).join("")).toBe("abcdefgh");
    expect((await collect(await create())).content).toBe("after");
  });

  it("close() destroys hung responses instead of hanging", async () => {
    server.enqueue(hang());
    const pending = create().then(
      () => "resolved",
      (e: unknown) => e,
    );
    await server.waitForHang();
    await server.close();
    expect(await pending).toBeInstanceOf(OpenAI.APIConnectionError);
  });

  it("answers 500 'script exhausted' when there is no script and no responder", async () => {
    await expect(create()).rejects.toMatchObject({ status: 500, message: expect.stringContaining("scripted server: script exhausted") });
    expect(server.completionRequests).toHaveLength(1);
  });
});

describe("recording, waiting and dynamic responders", () => {
  it("records every request with headers and parsed bodies; lists the model", async () => {
    server.enqueue(text("ok"));
    await collect(await create("hello"));
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(["scripted-model"]);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /v1/chat/completions", "GET /v1/models"]);
    const [request] = server.completionRequests;
    expect(request?.headers.authorization).toBe("Bearer test");
    expect(request?.body).toMatchObject({ model: "m", stream: true, stream_options: { include_usage: true } });
    expect(request?.body.messages).toEqual([{ role: "user", content: "hello" }]);
    expect(request?.index).toBe(0);
  });

  it("waitForRequests resolves on arrival, immediately when already satisfied, rejects on close", async () => {
    server.enqueue(hang());
    const waiting = server.waitForRequests(1);
    const pending = create("first").catch((e: unknown) => e);
    const [request] = await waiting;
    expect(request?.body.messages[0]?.content).toBe("first");
    await expect(server.waitForRequests(1)).resolves.toHaveLength(1);
    const never = server.waitForRequests(5);
    await server.close();
    await expect(never).rejects.toThrow(/closed/);
    await pending;
  });

  it("uses the queue first, then the responder; a throwing responder gives a 500", async () => {
    await server.close();
    let calls = 0;
    server = await startScriptedServer({
      model: "custom",
      responder: (request) => {
        calls++;
        if (request.body.messages[0]?.content === "boom") throw new Error("kaboom");
        return text(`dynamic ${request.index}`);
      },
    });
    client = new OpenAI({ baseURL: server.baseUrl, apiKey: "test", maxRetries: 0 });
    server.enqueue(text("queued"));
    expect((await collect(await create())).content).toBe("queued");
    expect((await collect(await create())).content).toBe("dynamic 1");
    await expect(create("boom")).rejects.toMatchObject({ status: 500, message: expect.stringContaining("kaboom") });
    expect(calls).toBe(2);
    expect((await client.models.list()).data[0]?.id).toBe("custom");
  });

  it("raw keepAlive and timed pieces: keep-alives interleave with the timed text, which ends the body", async () => {
    server.enqueue({
      kind: "raw",
      timed: [
        { afterMs: 60, text: "data: one\n\n" },
        { afterMs: 60, text: "data: two\n\n" },
      ],
      keepAlive: { text: ": ka\n\n", everyMs: 10 },
    });
    const response = await fetch(`${server.baseUrl}/chat/completions`, { method: "POST", body: JSON.stringify(streamRequest("hi")) });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const body = await response.text();
    expect(body.indexOf(": ka")).toBeLessThan(body.indexOf("data: one"));
    expect(body.indexOf("data: one")).toBeLessThan(body.indexOf("data: two"));
    expect(body.endsWith("data: two\n\n")).toBe(true);
  });

  it("raw keepAlive alone runs until the client goes away", async () => {
    server.enqueue({ kind: "raw", keepAlive: { text: ": ka\n\n", everyMs: 10 } });
    const ended = new Promise<ResponseInfo>((resolve) => server.on("response", resolve));
    const controller = new AbortController();
    const response = await fetch(`${server.baseUrl}/chat/completions`, {
      method: "POST",
      body: JSON.stringify(streamRequest("hi")),
      signal: controller.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let received = "";
    while (received.split(": ka").length < 4) received += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    expect((await ended).outcome).toBe("aborted");
  });

  it("answers 404 for unknown routes", async () => {
    const response = await fetch(`${server.baseUrl}/embeddings`, { method: "POST", body: "{}" });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { type: "invalid_request_error" } });
  });
});

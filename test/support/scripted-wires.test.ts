/**
 * The scripted server's Responses and Anthropic Messages wires, through the providers' official clients:
 * the same scripts as Chat Completions, each wire's own events, and requests recorded in the wire-neutral
 * (Chat Completions) shape.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { drop, httpError, startScriptedServer, text, toolCall, type ScriptedServer } from "./scripted-server.js";

let server: ScriptedServer;
let openai: OpenAI;
let anthropic: Anthropic;

beforeEach(async () => {
  server = await startScriptedServer();
  openai = new OpenAI({ baseURL: server.baseUrl, apiKey: "test", maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: server.baseUrl.replace(/\/v1$/, ""), apiKey: "test", maxRetries: 0 });
});
afterEach(async () => {
  await server.close();
});

async function responsesEvents(request: Partial<OpenAI.Responses.ResponseCreateParamsStreaming> = {}) {
  const stream = await openai.responses.create({ model: "m", input: "hi", stream: true, ...request });
  const events: OpenAI.Responses.ResponseStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

async function anthropicEvents(request: Partial<Anthropic.MessageCreateParamsStreaming> = {}) {
  const stream = await anthropic.messages.create({ model: "m", max_tokens: 100, messages: [{ role: "user", content: "hi" }], stream: true, ...request });
  const events: Anthropic.RawMessageStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The conversation both wires' record tests send, in the wire-neutral shape, with the wire's reasoning passed back. */
const neutralConversation = (reasoning: unknown[]) => [
  { role: "system", content: "Be brief." },
  { role: "user", content: "read a.ts" },
  {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "c1", type: "function", function: { name: "view", arguments: '{"path":"a.ts"}' } }],
    reasoning_items: reasoning,
  },
  { role: "tool", tool_call_id: "c1", content: "hello" },
];
const neutralTools = [{ type: "function", function: { name: "view", description: "Read", parameters: { type: "object" } } }];

describe("the Responses wire", () => {
  it("streams text as output_text deltas and ends with response.completed and its usage", async () => {
    server.enqueue(text("Hello, world!", { chunkSize: 4, usage: { prompt_tokens: 9, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 2 } } }));
    const events = await responsesEvents();
    const deltas = events.flatMap((event) => (event.type === "response.output_text.delta" ? [event.delta] : []));
    expect(deltas.join("")).toBe("Hello, world!");
    expect(deltas.length).toBeGreaterThan(2);
    expect(events[0]?.type).toBe("response.created");
    const done = events.at(-1);
    expect(done?.type).toBe("response.completed");
    if (done?.type !== "response.completed") return;
    expect(done.response.usage).toMatchObject({ input_tokens: 9, output_tokens: 3, input_tokens_details: { cached_tokens: 2 } });
    expect(done.response.output[0]).toMatchObject({ type: "message", content: [{ type: "output_text", text: "Hello, world!" }] });
  });

  it("streams a function call's arguments and reasoning summaries, with encrypted content when included", async () => {
    server.enqueue(toolCall("view", { path: "a.ts" }, { reasoning: "Look first.", encryptedContent: "sealed" }));
    const events = await responsesEvents({ include: ["reasoning.encrypted_content"], store: false });
    const summary = events.flatMap((event) => (event.type === "response.reasoning_summary_text.delta" ? [event.delta] : []));
    expect(summary.join("")).toBe("Look first.");
    const args = events.flatMap((event) => (event.type === "response.function_call_arguments.delta" ? [event.delta] : []));
    expect(args.join("")).toBe('{"path":"a.ts"}');
    const items = events.flatMap((event) => (event.type === "response.output_item.done" ? [event.item] : []));
    expect(items[0]).toMatchObject({ type: "reasoning", encrypted_content: "sealed", summary: [{ type: "summary_text", text: "Look first." }] });
    expect(items[1]).toMatchObject({ type: "function_call", call_id: "call_0_0", name: "view", arguments: '{"path":"a.ts"}' });
  });

  it("leaves out encrypted content the request did not include, and reports a cut answer as incomplete", async () => {
    server.enqueue(text("cut", { reasoning: "hm", finishReason: "length" }));
    const events = await responsesEvents();
    const reasoning = events.find((event) => event.type === "response.output_item.done" && event.item.type === "reasoning");
    expect(reasoning?.type === "response.output_item.done" && "encrypted_content" in reasoning.item).toBe(false);
    const last = events.at(-1);
    expect(last?.type).toBe("response.incomplete");
    expect(last?.type === "response.incomplete" && last.response.incomplete_details?.reason).toBe("max_output_tokens");
  });

  it("records input items in the wire-neutral shape: instructions, messages, calls, outputs, reasoning passed back", async () => {
    server.enqueue(text("ok"));
    await responsesEvents({
      instructions: "Be brief.",
      tools: [{ type: "function", name: "view", description: "Read", parameters: { type: "object" }, strict: false }],
      input: [
        { role: "user", content: [{ type: "input_text", text: "read a.ts" }] },
        { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "sealed" },
        { type: "function_call", call_id: "c1", name: "view", arguments: '{"path":"a.ts"}' },
        { type: "function_call_output", call_id: "c1", output: "hello" },
      ],
    });
    const [request] = server.completionRequests;
    expect(request?.wire).toBe("responses");
    expect(request?.path).toBe("/v1/responses");
    expect(request?.body.messages).toEqual(neutralConversation([{ type: "reasoning", id: "rs_1", summary: [], encrypted_content: "sealed" }]));
    expect(request?.body.tools).toEqual(neutralTools);
  });

  it("cuts the stream at the same step as Chat Completions (dropAfterChunks counts chat chunks)", async () => {
    server.enqueue(text("abcdefgh", { chunkSize: 2, dropAfterChunks: 2 }));
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const event of await openai.responses.create({ model: "m", input: "hi", stream: true })) {
          if (event.type === "response.output_text.delta") seen.push(event.delta);
        }
      })(),
    ).rejects.toThrow();
    expect(seen).toEqual(["ab", "cd"]);
  });
});

describe("the Anthropic Messages wire", () => {
  it("streams thinking with its signature, text and a tool_use block, then message_delta with the stop reason", async () => {
    server.enqueue(toolCall("view", { path: "a.ts" }, { reasoning: "Look first.", encryptedContent: "sig", text: "Let me look.", chunkSize: 5 }));
    const events = await anthropicEvents();
    expect(events[0]?.type).toBe("message_start");
    const deltas = events.flatMap((event) => (event.type === "content_block_delta" ? [event.delta] : []));
    expect(
      deltas
        .filter((delta) => delta.type === "thinking_delta")
        .map((delta) => delta.thinking)
        .join(""),
    ).toBe("Look first.");
    expect(deltas.find((delta) => delta.type === "signature_delta")).toEqual({ type: "signature_delta", signature: "sig" });
    expect(
      deltas
        .filter((delta) => delta.type === "text_delta")
        .map((delta) => delta.text)
        .join(""),
    ).toBe("Let me look.");
    expect(
      deltas
        .filter((delta) => delta.type === "input_json_delta")
        .map((delta) => delta.partial_json)
        .join(""),
    ).toBe('{"path":"a.ts"}');
    const starts = events.flatMap((event) => (event.type === "content_block_start" ? [event.content_block] : []));
    expect(starts.map((block) => block.type)).toEqual(["thinking", "text", "tool_use"]);
    expect(starts[2]).toMatchObject({ id: "call_0_0", name: "view" });
    const end = events.find((event) => event.type === "message_delta");
    expect(end?.type === "message_delta" && end.delta.stop_reason).toBe("tool_use");
    expect(events.at(-1)?.type).toBe("message_stop");
  });

  it("sends errors in Anthropic's shape, which the client reads", async () => {
    server.enqueue(httpError(429, { headers: { "retry-after": "0" } }));
    const failure = await anthropicEvents().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Anthropic.RateLimitError);
    expect((failure as InstanceType<typeof Anthropic.RateLimitError>).error).toEqual({
      type: "error",
      error: { type: "rate_limit_error", message: "scripted error 429" },
    });
  });

  it("records blocks in the wire-neutral shape: system, tool_use, tool_result, images, thinking passed back", async () => {
    server.enqueue(text("ok"));
    await anthropicEvents({
      system: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }],
      tools: [{ name: "view", description: "Read", input_schema: { type: "object" } }],
      messages: [
        { role: "user", content: [{ type: "text", text: "read a.ts" }] },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "hm", signature: "sig" },
            { type: "tool_use", id: "c1", name: "view", input: { path: "a.ts" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "c1", content: "hello" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
          ],
        },
      ],
    });
    const [request] = server.completionRequests;
    expect(request?.wire).toBe("anthropic");
    expect(request?.body.messages).toEqual([
      ...neutralConversation([{ type: "thinking", thinking: "hm", signature: "sig" }]),
      { role: "user", content: [{ type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }] },
    ]);
    expect(request?.body.tools).toEqual(neutralTools);
  });

  it("drops the connection at the same step as Chat Completions", async () => {
    server.enqueue(text("abcdefgh", { chunkSize: 2, dropAfterChunks: 3 }), drop());
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const event of await anthropic.messages.create({ model: "m", max_tokens: 10, messages: [{ role: "user", content: "hi" }], stream: true })) {
        if (event.type === "content_block_delta" && event.delta.type === "text_delta") seen.push(event.delta.text);
      }
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(seen).toEqual(["ab", "cd", "ef"]);
  });
});

/**
 * The chunk read without zod (plainChunk, the hot path of a Chat Completions stream) against the schemas: for
 * every value it takes, the schemas give the same chunk and the same first choice; what it leaves to them
 * includes every value the schemas would change, catch or reject.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { chunkSchema, plainChunk, ResponseAssembler } from "../../src/provider/chat-chunks.js";
import { variantsOf, withPath as withPathOf } from "../support/json-variants.js";

const withPath = (path: (string | number)[], value: unknown) => withPathOf(BASE, path, value);

const BASE = { id: "c", object: "chat.completion.chunk", model: "m", choices: [{ index: 0, delta: { content: "hi" }, finish_reason: null }] };

const PATHS: (string | number)[][] = [
  [],
  ["model"],
  ["usage"],
  ["choices"],
  ["choices", 0],
  ["choices", 0, "index"],
  ["choices", 0, "finish_reason"],
  ["choices", 0, "delta"],
  ...["role", "content", "refusal", "reasoning_content", "reasoning", "tool_calls"].map((field) => ["choices", 0, "delta", field]),
  ["choices", 0, "delta", "tool_calls", 0],
  ...["index", "id", "function"].map((field) => ["choices", 0, "delta", "tool_calls", 0, field]),
  ...["name", "arguments"].map((field) => ["choices", 0, "delta", "tool_calls", 0, "function", field]),
];

/** The chunk that ends a stream asked for its usage (`stream_options.include_usage`): no choice, the counts. */
const USAGE_CHUNK = {
  id: "c",
  object: "chat.completion.chunk",
  model: "m",
  choices: [],
  usage: {
    prompt_tokens: 10,
    completion_tokens: 5,
    total_tokens: 15,
    prompt_tokens_details: { cached_tokens: 2 },
    completion_tokens_details: { reasoning_tokens: 1 },
  },
};

const USAGE_PATHS: (string | number)[][] = [
  ["choices"],
  ["usage"],
  ...["prompt_tokens", "completion_tokens", "total_tokens", "prompt_tokens_details", "completion_tokens_details"].map((field) => ["usage", field]),
  ["usage", "prompt_tokens_details", "cached_tokens"],
  ["usage", "completion_tokens_details", "reasoning_tokens"],
];

/** What an assembler makes of a value: what it sees and what it streams. */
function assembled(value: unknown) {
  const texts: string[] = [];
  const calls: unknown[] = [];
  const assembler = new ResponseAssembler(
    "m",
    { onText: (t) => texts.push(t), onReasoning: (t) => texts.push(`r:${t}`), onToolCallStart: (c) => calls.push(c) },
    { maxOutputTokens: 1e6 },
  );
  const added = assembler.add(value, JSON.stringify(value) ?? "");
  return {
    added,
    texts,
    calls,
    content: assembler.content,
    reasoning: assembler.reasoning,
    finish: assembler.finishReason,
    model: assembler.model,
    toolCalls: assembler.toolCalls,
  };
}

describe("chat chunks read without zod", () => {
  // A tool call the server sent without an id gets one made from the clock: both readings must see one time.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"], now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const values: unknown[] = [...variantsOf(BASE, PATHS), ...variantsOf(USAGE_CHUNK, USAGE_PATHS)];
  values.push(
    withPath(["choices", 0, "delta", "tool_calls"], [{ index: 0, id: "call_1", function: { name: "view", arguments: "" } }]),
    withPath(
      ["choices", 0, "delta", "tool_calls"],
      [
        { index: 1, function: { arguments: '{"pa' } },
        { index: 2, function: null },
      ],
    ),
    withPath(["choices", 0, "delta", "tool_calls"], [{ index: 0 }, 5]),
    withPath(["choices", 0, "delta", "tool_calls", 0, "index"], -0),
    withPath(["choices", 0, "delta", "tool_calls", 0, "index"], 2 ** 60),
    withPath(["choices"], [{ delta: { content: "a" } }, { delta: { content: 5 } }]),
    withPath(["choices"], []),
    withPath(["usage"], { prompt_tokens: 1, completion_tokens: 2 }),
    { choices: [{ delta: { role: "assistant", content: null } }], model: null, usage: null },
  );

  it("takes only values the schemas give back unchanged", () => {
    let taken = 0;
    for (const value of values) {
      const plain = plainChunk(value);
      if (!plain) continue;
      taken++;
      const parsed = chunkSchema().safeParse(value);
      expect(parsed.success, JSON.stringify(value)).toBe(true);
      expect(parsed.data, JSON.stringify(value)).toEqual(plain.chunk);
      const [first] = (value as { choices: unknown[] }).choices;
      expect(plain.choice).toBe(first);
    }
    // The common chunk, and the well-typed variants of its fields, are read without zod; so is the usage chunk.
    expect(plainChunk(BASE)).toBeDefined();
    expect(plainChunk(USAGE_CHUNK)).toEqual({ chunk: USAGE_CHUNK, choice: undefined });
    expect(taken).toBeGreaterThan(40);
  });

  it("streams, assembles and counts every value as the schemas alone would", () => {
    for (const value of values) {
      const fast = assembled(value);
      // Against the schema's own output: what it caught or dropped is gone there, so a reading that kept it differs.
      const parsed = chunkSchema().safeParse(value);
      if (!parsed.success) {
        expect(plainChunk(value), JSON.stringify(value)).toBeUndefined();
        expect(fast.added).toBe(false);
        continue;
      }
      expect(fast.added).toBe(true);
      expect(assembled(parsed.data), JSON.stringify(value)).toEqual(fast);
    }
  });
});

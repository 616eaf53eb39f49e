/**
 * The Responses and Anthropic events read without zod (plainResponsesEvent, plainAnthropicEvent: the hot path
 * of those wires' streams) against their schemas: every event taken as it is, the schema gives back equal, and
 * an assembler reads it as it reads the schema's output.
 */
import { describe, expect, it } from "vitest";
import type { EventAssembler } from "../../src/provider/answer-assembler.js";
import { AnthropicAssembler, plainAnthropicEvent } from "../../src/provider/anthropic-events.js";
import { plainResponsesEvent, ResponsesAssembler } from "../../src/provider/responses-events.js";
import { variantsOf } from "../support/json-variants.js";

type Reader = EventAssembler<{ type: string }>;

interface Wire {
  name: string;
  plain(value: unknown): unknown;
  reader(): Reader;
  bases: { base: unknown; paths: (string | number)[][] }[];
}

const WIRES: Wire[] = [
  {
    name: "Responses",
    plain: plainResponsesEvent,
    reader: () => new ResponsesAssembler("m", { onText: () => undefined, onReasoning: () => undefined }, { maxOutputTokens: 1e6 }) as unknown as Reader,
    bases: [
      {
        base: { type: "response.output_text.delta", item_id: "msg_1", output_index: 0, content_index: 0, delta: "Hel", sequence_number: 3 },
        paths: [["type"], ["delta"], ["item_id"], ["output_index"], ["summary_index"], ["arguments"], ["item"], ["response"], ["code"], ["message"]],
      },
      {
        base: { type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 1, delta: '{"pa' },
        paths: [["delta"], ["output_index"]],
      },
      { base: { type: "error", code: "rate_limit_exceeded", message: "slow down" }, paths: [["code"], ["message"]] },
      // The response and its items, as the API sends them at the start and the end of a stream, are read without
      // zod too (the schemas are then never built).
      {
        base: { type: "response.created", response: { id: "resp_1", model: "m", status: "in_progress", output: [], usage: null }, sequence_number: 0 },
        paths: [["response"], ["response", "model"], ["response", "status"], ["response", "output"], ["response", "usage"], ["response", "error"]],
      },
      {
        base: {
          type: "response.completed",
          response: {
            model: "m",
            status: "incomplete",
            output: [{ type: "message", content: [{ type: "output_text", text: "Hi" }] }],
            usage: { input_tokens: 5, output_tokens: 7, input_tokens_details: { cached_tokens: 2 }, output_tokens_details: { reasoning_tokens: 1 } },
            incomplete_details: { reason: "max_output_tokens" },
            error: null,
          },
        },
        paths: [
          ["response", "usage", "input_tokens"],
          ["response", "usage", "output_tokens"],
          ["response", "usage", "input_tokens_details"],
          ["response", "usage", "input_tokens_details", "cached_tokens"],
          ["response", "usage", "output_tokens_details", "reasoning_tokens"],
          ["response", "incomplete_details"],
          ["response", "incomplete_details", "reason"],
        ],
      },
      {
        base: { type: "response.failed", response: { status: "failed", error: { code: "server_error", message: "boom" } } },
        paths: [
          ["response", "error"],
          ["response", "error", "code"],
          ["response", "error", "message"],
        ],
      },
      {
        base: {
          type: "response.output_item.done",
          output_index: 0,
          item: {
            type: "message",
            id: "msg_1",
            content: [{ type: "output_text", text: "Hi" }],
            summary: [{ text: "thought" }],
            encrypted_content: "x",
          },
        },
        paths: [
          ["item"],
          ["item", "type"],
          ["item", "id"],
          ["item", "call_id"],
          ["item", "name"],
          ["item", "arguments"],
          ["item", "encrypted_content"],
          ["item", "content"],
          ["item", "content", 0],
          ["item", "content", 0, "text"],
          ["item", "content", 0, "refusal"],
          ["item", "summary"],
          ["item", "summary", 0, "text"],
        ],
      },
      {
        base: {
          type: "response.output_item.added",
          output_index: 1,
          item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "view", arguments: "" },
        },
        // Not its call_id: a call without one is given an id made from the clock, different in each reading.
        paths: [
          ["item", "name"],
          ["item", "arguments"],
        ],
      },
    ],
  },
  {
    name: "Anthropic",
    plain: plainAnthropicEvent,
    reader: () => new AnthropicAssembler("m", { onText: () => undefined, onReasoning: () => undefined }, { maxOutputTokens: 1e6 }) as unknown as Reader,
    bases: [
      {
        base: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hel" } },
        paths: [
          ["type"],
          ["index"],
          ["delta"],
          ...["type", "text", "thinking", "signature", "partial_json", "stop_reason"].map((field) => ["delta", field]),
          ["message"],
          ["content_block"],
          ["usage"],
        ],
      },
      { base: { type: "content_block_stop", index: 0 }, paths: [["index"]] },
      { base: { type: "ping" }, paths: [] },
      // The message, its blocks and the usage, as the API sends them at the start and the end of a stream, are read
      // without zod too (the schemas are then never built).
      {
        base: {
          type: "message_start",
          message: {
            id: "msg_1",
            type: "message",
            role: "assistant",
            model: "m",
            content: [],
            stop_reason: null,
            usage: { input_tokens: 12, output_tokens: 1, cache_read_input_tokens: 3, cache_creation_input_tokens: 0 },
          },
        },
        paths: [
          ["message"],
          ["message", "type"],
          ["message", "model"],
          ["message", "content"],
          ["message", "stop_reason"],
          ["message", "usage"],
          ...["input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"].map((field) => ["message", "usage", field]),
        ],
      },
      {
        base: { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        paths: [["content_block"], ...["type", "id", "name", "text", "thinking", "signature", "data", "input"].map((field) => ["content_block", field])],
      },
      {
        base: { type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_1", name: "view", input: {} } },
        paths: [
          ["content_block", "name"],
          ["content_block", "input"],
        ],
      },
      {
        base: { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 42 } },
        paths: [["usage"], ["usage", "output_tokens"], ["usage", "input_tokens"], ["delta", "stop_reason"]],
      },
    ],
  },
];

/** What a fresh assembler makes of one event. */
function assembled(wire: Wire, value: unknown) {
  const reader = wire.reader();
  let result: unknown;
  try {
    result = reader.add(value, JSON.stringify(value) ?? "", undefined);
  } catch (error) {
    result = `threw: ${(error as Error).message}`;
  }
  return { result, content: reader.content, reasoning: reader.reasoning, finish: reader.finishReason, toolCalls: reader.toolCalls };
}

describe("wire events read without zod", () => {
  for (const wire of WIRES) {
    const values = wire.bases.flatMap(({ base, paths }) => variantsOf(base, paths));
    const schema = (wire.reader() as unknown as { schema: { safeParse(value: unknown): { success: boolean; data?: unknown } } }).schema;

    it(`takes only ${wire.name} events the schema gives back unchanged`, () => {
      let taken = 0;
      for (const value of values) {
        const plain = wire.plain(value);
        if (plain === undefined) continue;
        taken++;
        const parsed = schema.safeParse(value);
        expect(parsed.success, JSON.stringify(value)).toBe(true);
        expect(parsed.data, JSON.stringify(value)).toEqual(plain);
      }
      for (const { base } of wire.bases) expect(wire.plain(base), JSON.stringify(base)).toBeDefined();
      expect(taken).toBeGreaterThan(20);
    });

    it(`reads every ${wire.name} event as it reads the schema's output`, () => {
      for (const value of values) {
        const parsed = schema.safeParse(value);
        if (!parsed.success) {
          expect(wire.plain(value), JSON.stringify(value)).toBeUndefined();
          continue;
        }
        expect(assembled(wire, value), JSON.stringify(value)).toEqual(assembled(wire, parsed.data));
      }
    });
  }
});

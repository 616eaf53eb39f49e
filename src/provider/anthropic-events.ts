/**
 * What an Anthropic Messages endpoint streams (`message_start`, content blocks and their deltas,
 * `message_delta`, `message_stop`, `ping`), checked with zod and assembled into one answer: text, extended
 * thinking (shown as reasoning; its blocks kept with their signatures to be passed back), tool_use blocks
 * whose input streams as JSON pieces, the usage (cache reads and writes included in the prompt count) and
 * the stop reason in Chat Completions' words. `error` events are thrown by the shared reader.
 *
 * The thinking blocks are kept in `reasoningOpaque`: one thinking block (the usual case) as its signature
 * alone, its text being the reasoning; anything else (several blocks, redacted thinking) as a JSON array of
 * the blocks. A signature is base64 and never starts with "[".
 */
import { z } from "zod";
import { EventAssembler, type WireReader } from "./answer-assembler.js";
import { allText, isAbsent, isCount, isRecord, onFirstUse } from "./plain-fields.js";

/**
 * The schemas, built when a piece first needs one: an ordinary stream's events (the deltas, the message, its
 * blocks and usage as the API sends them) are read without zod (below), and building these costs a run ~1–2 ms
 * and some zod objects it would not use.
 */
function buildSchemas() {
  const text = z.string().nullish().catch(undefined);
  const count = z.number().nullish().catch(undefined);
  const usage = z.looseObject({
    input_tokens: count,
    output_tokens: count,
    cache_read_input_tokens: count,
    cache_creation_input_tokens: count,
  });
  const block = z.looseObject({ type: text, id: text, name: text, text, thinking: text, signature: text, data: text, input: z.unknown().optional() });
  const message = z.looseObject({
    type: text,
    model: text,
    content: z.array(z.unknown()).nullish().catch(undefined),
    stop_reason: text,
    usage: usage.nullish().catch(undefined),
  });
  const event = z.looseObject({
    type: z.string(),
    index: z.number().nullish().catch(undefined),
    message: message.nullish().catch(undefined),
    content_block: block.nullish().catch(undefined),
    delta: z.looseObject({ type: text, text, thinking: text, signature: text, partial_json: text, stop_reason: text }).nullish().catch(undefined),
    usage: usage.nullish().catch(undefined),
  });
  return { usage, block, message, event };
}
const schemas = onFirstUse(buildSchemas);

type Usage = z.infer<ReturnType<typeof buildSchemas>["usage"]>;
type Block = z.infer<ReturnType<typeof buildSchemas>["block"]>;
type Message = z.infer<ReturnType<typeof buildSchemas>["message"]>;
type Event = z.infer<ReturnType<typeof buildSchemas>["event"]>;

const DELTA_TEXTS = ["type", "text", "thinking", "signature", "partial_json", "stop_reason"];
const USAGE_COUNTS = ["input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"];
const BLOCK_TEXTS = ["type", "id", "name", "text", "thinking", "signature", "data"];
const MESSAGE_TEXTS = ["type", "model", "stop_reason"];

/** Each of these checks: every field the schema looks at has its type, so the schema would give back the same. */
function isPlainUsage(value: unknown): value is Usage {
  if (!isRecord(value)) return false;
  for (const field of USAGE_COUNTS) if (!isCount(value[field])) return false;
  return true;
}

function isPlainBlock(value: unknown): value is Block {
  return isRecord(value) && allText(value, BLOCK_TEXTS);
}

function isPlainMessage(value: unknown): value is Message {
  if (!isRecord(value) || !allText(value, MESSAGE_TEXTS)) return false;
  if (!isAbsent(value.content) && !Array.isArray(value.content)) return false;
  return isAbsent(value.usage) || isPlainUsage(value.usage);
}

/** An event every field of which is well typed (its message, block, delta and usage too): read without zod. */
export function plainAnthropicEvent(value: unknown): Event | undefined {
  if (!isRecord(value) || typeof value.type !== "string" || !isCount(value.index)) return undefined;
  if (!(isAbsent(value.message) || isPlainMessage(value.message))) return undefined;
  if (!(isAbsent(value.content_block) || isPlainBlock(value.content_block))) return undefined;
  if (!(isAbsent(value.usage) || isPlainUsage(value.usage))) return undefined;
  const delta = value.delta;
  if (!isAbsent(delta) && !(isRecord(delta) && allText(delta, DELTA_TEXTS))) return undefined;
  return value as Event;
}

/** Anthropic's stop reasons in Chat Completions' words. */
const STOP_REASONS: Record<string, string> = {
  end_turn: "stop",
  stop_sequence: "stop",
  pause_turn: "stop",
  tool_use: "tool_calls",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  refusal: "content_filter",
};

export type ThinkingBlock = { type: "thinking"; thinking: string; signature: string } | { type: "redacted_thinking"; data: string };

/** The thinking blocks an assistant message carried, from its reasoning text and reasoningOpaque (see the header). */
export function thinkingBlocks(reasoning: string | undefined, opaque: string | undefined): ThinkingBlock[] {
  if (!opaque) return [];
  if (!opaque.startsWith("[")) return [{ type: "thinking", thinking: reasoning ?? "", signature: opaque }];
  try {
    const blocks: unknown = JSON.parse(opaque);
    return Array.isArray(blocks) ? (blocks as ThinkingBlock[]) : [];
  } catch {
    return [];
  }
}

export class AnthropicAssembler extends EventAssembler<Event> implements WireReader {
  readonly noun = "Anthropic message";
  readonly baseUrlHint = "Check that the provider's baseUrl points at an Anthropic Messages API (e.g. https://api.anthropic.com).";
  /** What each content block index is: a tool call (its index among the calls) or a thinking block. */
  private readonly blocks = new Map<number, { tool?: number; thinking?: ThinkingBlock }>();
  private readonly thinking: ThinkingBlock[] = [];
  private tools = 0;
  private input = { tokens: 0, cacheRead: 0 };
  private output = 0;

  protected get schema(): ReturnType<typeof buildSchemas>["event"] {
    return schemas().event;
  }
  protected plain(candidate: unknown): Event | undefined {
    return plainAnthropicEvent(candidate);
  }

  protected apply(event: Event): void | "end" {
    const index = event.index ?? 0;
    switch (event.type) {
      case "message_start":
        if (event.message?.model) this.model = event.message.model;
        if (event.message?.usage) this.readUsage(event.message.usage);
        return;
      case "content_block_start":
        if (event.content_block) this.startBlock(index, event.content_block);
        return;
      case "content_block_delta":
        this.addDeltaTo(index, event.delta ?? {});
        return;
      case "message_delta":
        if (event.delta?.stop_reason) this.finishReason = STOP_REASONS[event.delta.stop_reason] ?? event.delta.stop_reason;
        if (event.usage) this.readUsage(event.usage);
        return;
      case "message_stop":
        this.settle();
        return "end";
      default:
        return;
    }
  }

  private startBlock(index: number, block: Block): void {
    if (block.type === "tool_use") {
      const tool = this.tools++;
      this.blocks.set(index, { tool });
      this.addToolCall(tool, { id: block.id, name: block.name, arguments: "" });
      // A whole block (a server that does not stream the input) carries its input already.
      if (block.input && typeof block.input === "object" && Object.keys(block.input).length > 0) this.settleToolArguments(tool, JSON.stringify(block.input));
    } else if (block.type === "thinking") {
      const thinking: ThinkingBlock = { type: "thinking", thinking: "", signature: block.signature ?? "" };
      this.thinking.push(thinking);
      this.blocks.set(index, { thinking });
      this.addThinking(thinking, block.thinking);
    } else if (block.type === "redacted_thinking") {
      this.thinking.push({ type: "redacted_thinking", data: block.data ?? "" });
    } else if (block.type === "text") {
      this.addText(block.text);
    }
  }

  private addThinking(block: ThinkingBlock, piece: string | null | undefined): void {
    if (!piece || block.type !== "thinking") return;
    block.thinking += piece;
    this.addReasoning(piece);
  }

  private addDeltaTo(index: number, delta: NonNullable<Event["delta"]>): void {
    const block = this.blocks.get(index);
    switch (delta.type) {
      case "text_delta":
        this.addText(delta.text);
        return;
      case "thinking_delta":
        if (block?.thinking) this.addThinking(block.thinking, delta.thinking);
        else this.addReasoning(delta.thinking);
        return;
      case "signature_delta":
        if (block?.thinking?.type === "thinking") block.thinking.signature += delta.signature ?? "";
        return;
      case "input_json_delta":
        if (block?.tool !== undefined) this.addToolCall(block.tool, { arguments: delta.partial_json });
        return;
      default:
        return;
    }
  }

  private readUsage(usage: Usage): void {
    if (usage.input_tokens !== undefined && usage.input_tokens !== null) {
      this.input = {
        tokens: usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0),
        cacheRead: usage.cache_read_input_tokens ?? 0,
      };
    }
    if (usage.output_tokens !== undefined && usage.output_tokens !== null) this.output = usage.output_tokens;
    this.setUsage({ inputTokens: this.input.tokens, outputTokens: this.output, ...(this.input.cacheRead ? { cacheReadTokens: this.input.cacheRead } : {}) });
  }

  /** The end: tool calls without input get `{}`, and the thinking blocks are kept to be passed back. */
  private settle(): void {
    for (let tool = 0; tool < this.tools; tool++) this.settleToolArguments(tool, this.toolCalls[tool]?.arguments === "" ? "{}" : "");
    const signed = this.thinking.filter((block) => block.type === "redacted_thinking" || block.signature !== "");
    if (signed.length === 1 && signed[0]?.type === "thinking") this.reasoningOpaque = signed[0].signature;
    else if (signed.length > 0) this.reasoningOpaque = JSON.stringify(signed);
  }

  /** A whole non-streamed `message`. */
  addJson(value: unknown): boolean {
    const parsed = isPlainMessage(value) ? { success: true as const, data: value } : schemas().message.safeParse(value);
    if (!parsed.success || parsed.data.type !== "message" || !Array.isArray(parsed.data.content)) return false;
    this.seen.pieces++;
    const message = parsed.data;
    if (message.model) this.model = message.model;
    (message.content ?? []).forEach((block, index) => {
      const parsedBlock = isPlainBlock(block) ? { success: true as const, data: block } : schemas().block.safeParse(block);
      if (!parsedBlock.success) return;
      this.startBlock(index, parsedBlock.data.type === "thinking" ? { ...parsedBlock.data } : parsedBlock.data);
    });
    if (message.stop_reason) this.finishReason = STOP_REASONS[message.stop_reason] ?? message.stop_reason;
    if (message.usage) this.readUsage(message.usage);
    this.settle();
    return true;
  }

  describeEmpty(): string {
    return this.describe("event", "Anthropic stream event");
  }
}

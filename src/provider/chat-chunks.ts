/**
 * What an endpoint may send, checked with zod before anything is read from it, and the assembly of the
 * pieces into one response. Endpoints send pings (`{}`), scalars, chunks without choices or choices without
 * a delta; whatever is not a chunk is skipped and counted, so a response that ends with nothing usable can
 * say what the endpoint sent instead.
 */
import { z } from "zod";
import { ProviderError } from "./errors.js";
import type { ChatResponse, StreamHandlers } from "./types.js";

/** A text field: a string, or absent. Anything else (a number, an object) is treated as absent. */
const text = z.string().nullish().catch(undefined);

const usageSchema = z.looseObject({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  prompt_tokens_details: z.looseObject({ cached_tokens: z.number().nullish() }).nullish().catch(undefined),
  completion_tokens_details: z.looseObject({ reasoning_tokens: z.number().nullish() }).nullish().catch(undefined),
});

const toolCallDeltaSchema = z.looseObject({
  index: z.number().int().nonnegative().optional().catch(undefined),
  id: text,
  function: z.looseObject({ name: text, arguments: text }).nullish().catch(undefined),
});

const deltaSchema = z.looseObject({
  role: text,
  content: text,
  refusal: text,
  reasoning_content: text,
  reasoning: text,
  tool_calls: z.array(toolCallDeltaSchema).nullish().catch(undefined),
});

const choiceSchema = z.looseObject({
  index: z.number().optional().catch(undefined),
  delta: deltaSchema.optional().catch(undefined),
  finish_reason: text,
});

/** A `chat.completion.chunk`: an object with a `choices` array or a `usage` (the last chunk may have only that). */
export const chunkSchema = z
  .looseObject({
    model: text,
    usage: usageSchema.nullish().catch(undefined),
    choices: z.array(z.unknown()).optional().catch(undefined),
  })
  .refine((chunk) => chunk.choices !== undefined || chunk.usage, "neither choices nor usage");

/** A non-streamed `chat.completion`: its message becomes one delta. */
export const completionSchema = z.looseObject({
  model: text,
  usage: usageSchema.nullish().catch(undefined),
  choices: z.array(
    z.looseObject({
      message: deltaSchema.extend({
        tool_calls: z
          .array(z.looseObject({ id: text, function: z.looseObject({ name: text, arguments: text }).nullish().catch(undefined) }))
          .nullish()
          .catch(undefined),
      }),
      finish_reason: text,
    }),
  ),
});

type Delta = z.infer<typeof deltaSchema>;
type Usage = z.infer<typeof usageSchema>;

interface PartialToolCall {
  id: string;
  name: string;
  arguments: string;
  announced: boolean;
}

export interface AssemblyLimits {
  /** Output tokens (estimated) after which a response that is still streaming is cut off. */
  maxOutputTokens: number;
}

/** Collects a response from validated pieces, streaming text to the handlers as it comes. */
export class ResponseAssembler {
  content = "";
  reasoning = "";
  finishReason: string | null = null;
  model: string;
  usage: ChatResponse["usage"];
  firstTokenAt: number | undefined;
  private readonly calls = new Map<number, PartialToolCall>();
  /** What came in, for describing a response without an answer. */
  private readonly seen = { chunks: 0, skipped: 0, firstSkipped: "", roles: 0, nullContent: 0, emptyChoices: 0, usage: 0, refusal: false, done: false };
  private outputPieces = 0;
  private outputChars = 0;

  constructor(
    model: string,
    private readonly handlers: StreamHandlers,
    private readonly limits: AssemblyLimits,
  ) {
    this.model = model;
  }

  /** `[DONE]` arrived. */
  markDone(): void {
    this.seen.done = true;
  }

  /** A data line that was not a chunk (not JSON, a scalar, `{}`, …): skipped, but remembered. */
  skip(raw: string): void {
    this.seen.skipped++;
    if (this.seen.firstSkipped === "") this.seen.firstSkipped = raw.length > 60 ? `${raw.slice(0, 60)}…` : raw;
  }

  /** One parsed SSE data value; false when it was not a chunk (skipped). */
  addChunk(value: unknown, raw: string): boolean {
    const parsed = chunkSchema.safeParse(value);
    if (!parsed.success) {
      this.skip(raw);
      return false;
    }
    const chunk = parsed.data;
    this.seen.chunks++;
    if (chunk.model) this.model = chunk.model;
    if (chunk.usage) this.setUsage(chunk.usage);
    const choices = chunk.choices ?? [];
    if (choices.length === 0 && !chunk.usage) this.seen.emptyChoices++;
    // Only the first choice is read: the agent never asks for n > 1.
    const choice = choiceSchema.safeParse(choices[0]);
    if (!choice.success) return true;
    if (choice.data.delta) this.addDelta(choice.data.delta);
    if (choice.data.finish_reason) this.finishReason = choice.data.finish_reason;
    return true;
  }

  /** A whole non-streamed `chat.completion`. */
  addCompletion(completion: z.infer<typeof completionSchema>): void {
    this.seen.chunks++;
    if (completion.model) this.model = completion.model;
    if (completion.usage) this.setUsage(completion.usage);
    const choice = completion.choices[0];
    if (!choice) {
      this.seen.emptyChoices++;
      return;
    }
    const { tool_calls: calls, ...message } = choice.message;
    this.addDelta({
      ...message,
      tool_calls: (calls ?? []).map((call, index) => ({ index, id: call.id, function: call.function })),
    });
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
  }

  private setUsage(usage: Usage): void {
    this.seen.usage++;
    this.usage = {
      inputTokens: usage.prompt_tokens,
      outputTokens: usage.completion_tokens,
      cacheReadTokens: usage.prompt_tokens_details?.cached_tokens ?? undefined,
      reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? undefined,
    };
  }

  private countOutput(piece: string): void {
    this.firstTokenAt ??= performance.now();
    this.outputPieces++;
    this.outputChars += piece.length;
    // Each streamed piece is at least one token; long pieces count about four characters per token.
    const estimate = Math.max(this.outputPieces, Math.ceil(this.outputChars / 4));
    if (estimate > this.limits.maxOutputTokens) {
      throw new ProviderError(
        "invalid_response",
        `The model endpoint kept streaming past the output limit (about ${this.limits.maxOutputTokens} tokens) without finishing, so the response was stopped. Set provider.maxOutputTokens (or COPILOT_PROVIDER_MAX_OUTPUT_TOKENS) to change the limit.`,
      );
    }
  }

  private addDelta(delta: Delta): void {
    if (delta.role) this.seen.roles++;
    if (delta.content === null) this.seen.nullContent++;
    const thinking = delta.reasoning_content || delta.reasoning || "";
    if (thinking) {
      this.countOutput(thinking);
      this.reasoning += thinking;
      this.handlers.onReasoning(thinking);
    }
    // A refusal is the model's answer; it is shown and kept like any other.
    for (const piece of [delta.content, delta.refusal]) {
      if (!piece) continue;
      if (piece === delta.refusal) this.seen.refusal = true;
      this.countOutput(piece);
      this.content += piece;
      this.handlers.onText(piece);
    }
    (delta.tool_calls ?? []).forEach((callDelta, position) => {
      const index = callDelta.index ?? position;
      let call = this.calls.get(index);
      if (!call) {
        call = { id: "", name: "", arguments: "", announced: false };
        this.calls.set(index, call);
      }
      if (callDelta.id && !call.id) call.id = callDelta.id;
      if (callDelta.function?.name && !call.name) call.name = callDelta.function.name;
      const args = callDelta.function?.arguments ?? "";
      this.countOutput(args || " ");
      call.arguments += args;
      if (call.name && !call.announced) {
        call.announced = true;
        this.handlers.onToolCallStart?.({ id: call.id, name: call.name, index });
      }
    });
  }

  get toolCalls(): ChatResponse["toolCalls"] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .filter(([, call]) => call.name !== "" || call.arguments !== "")
      .map(([index, call]) => ({ id: call.id || `call_${index}_${Date.now().toString(36)}`, name: call.name, arguments: call.arguments }));
  }

  /** Whether the response holds something to act on: text (a refusal included) or a tool call. */
  get usable(): boolean {
    return this.content.trim() !== "" || this.toolCalls.length > 0;
  }

  /** Says, in a few words, what the endpoint sent when it sent no answer. */
  describeEmpty(): string {
    const { seen } = this;
    if (seen.chunks === 0 && seen.skipped === 0) return seen.done ? "only [DONE], no chunks" : "an empty stream";
    const parts: string[] = [];
    if (seen.chunks > 0) {
      const what: string[] = [];
      if (seen.roles > 0) what.push("a role");
      if (seen.nullContent > 0) what.push("content: null");
      if (this.content !== "") what.push("only whitespace");
      if (this.reasoning !== "") what.push("reasoning");
      if (seen.usage > 0) what.push("usage");
      if (seen.emptyChoices > 0) what.push("no choices");
      if (this.finishReason) what.push(`finish_reason "${this.finishReason}"`);
      parts.push(`${seen.chunks} chunk${seen.chunks === 1 ? "" : "s"}${what.length > 0 ? ` with ${what.join(", ")}` : ""} but no text or tool call`);
    }
    if (seen.skipped > 0)
      parts.push(
        `${seen.skipped} data line${seen.skipped === 1 ? "" : "s"} that ${seen.skipped === 1 ? "was" : "were"} not a chat completion chunk (${JSON.stringify(seen.firstSkipped)})`,
      );
    return parts.join("; ");
  }
}

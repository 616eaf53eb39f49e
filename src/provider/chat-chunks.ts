/**
 * What a Chat Completions endpoint may send, checked before anything is read from it (with zod, or by
 * plainChunk when every field already has its type), and the assembly of the pieces into one response
 * (answer-assembler.ts). Endpoints send pings (`{}`), scalars, chunks without choices or choices without a
 * delta; whatever is not a chunk is skipped and counted, so a response that ends with nothing usable can say
 * what the endpoint sent instead.
 */
import { z } from "zod";
import { AnswerAssembler, type WireReader } from "./answer-assembler.js";
import { allText, isRecord, isText, onFirstUse } from "./plain-fields.js";

/**
 * The schemas, built at their first use: a stream's chunks are read without them (plainChunk) but for odd ones, and
 * building them (82 zod objects, and three of zod's classes no other start-up schema uses) was ~0.15 MB of a `-p`
 * run's peak RSS (docs/benchmarks.md).
 */
function buildSchemas() {
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
  const chunkSchema = z
    .looseObject({
      model: text,
      usage: usageSchema.nullish().catch(undefined),
      choices: z.array(z.unknown()).optional().catch(undefined),
    })
    .refine((chunk) => chunk.choices !== undefined || chunk.usage, "neither choices nor usage");

  /** A non-streamed `chat.completion`: its message becomes one delta. */
  const completionSchema = z.looseObject({
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

  return { chunk: chunkSchema, choice: choiceSchema, completion: completionSchema };
}

type Schemas = ReturnType<typeof buildSchemas>;
const schemas = onFirstUse<Schemas>(buildSchemas);

/** A `chat.completion.chunk`: an object with a `choices` array or a `usage` (the last chunk may have only that). */
export const chunkSchema = (): Schemas["chunk"] => schemas().chunk;

type Chunk = z.infer<Schemas["chunk"]>;
type Choice = z.infer<Schemas["choice"]>;
type Delta = NonNullable<Choice["delta"]>;
type Usage = NonNullable<Chunk["usage"]>;

function isPlainToolCallDelta(value: unknown): boolean {
  if (!isRecord(value) || !isText(value.id)) return false;
  if (value.index !== undefined && !(Number.isSafeInteger(value.index) && (value.index as number) >= 0)) return false;
  const fn = value.function;
  return fn === undefined || fn === null || (isRecord(fn) && isText(fn.name) && isText(fn.arguments));
}

const DELTA_TEXTS = ["role", "content", "refusal", "reasoning_content", "reasoning"];

function isPlainDelta(value: unknown): boolean {
  if (value === undefined) return true;
  if (!isRecord(value)) return false;
  if (!allText(value, DELTA_TEXTS)) return false;
  const calls = value.tool_calls;
  return calls === undefined || calls === null || (Array.isArray(calls) && calls.every(isPlainToolCallDelta));
}

/** A token count zod's z.number() takes as it is. */
const isCount = (value: unknown): boolean => typeof value === "number" && Number.isFinite(value);

/** Usage details the schemas keep as they are: absent, null, or an object whose one field read is a count or absent. */
function isPlainDetails(value: unknown, field: string): boolean {
  if (value === undefined || value === null) return true;
  return isRecord(value) && (value[field] === undefined || value[field] === null || isCount(value[field]));
}

/** A chunk's usage the schemas keep as they are: absent, null, or the two counts with plain details. */
function isPlainUsage(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  return (
    isRecord(value) &&
    isCount(value.prompt_tokens) &&
    isCount(value.completion_tokens) &&
    isPlainDetails(value.prompt_tokens_details, "cached_tokens") &&
    isPlainDetails(value.completion_tokens_details, "reasoning_tokens")
  );
}

/**
 * The common chunk, read without zod: one whose every field the schemas look at already has its schema's type
 * (nothing to catch or reject), so zod would give back the same values; with no choice (the usage chunk that ends a
 * stream) the choice is undefined. Anything else (a field of the wrong type, no choices array) returns undefined and
 * goes through the schemas; test/provider/chat-chunk-check.test.ts holds the two to the same reading. Per chunk of a
 * stream, zod's copies cost more than the rest of the chunk's way.
 */
export function plainChunk(value: unknown): { chunk: Chunk; choice: Choice | undefined } | undefined {
  if (!isRecord(value) || !isText(value.model) || !isPlainUsage(value.usage)) return undefined;
  const choices = value.choices;
  if (!Array.isArray(choices)) return undefined;
  if (choices.length === 0) return { chunk: value as Chunk, choice: undefined };
  const choice: unknown = choices[0];
  if (!isRecord(choice) || !isText(choice.finish_reason) || !isPlainDelta(choice.delta)) return undefined;
  if (choice.index !== undefined && !Number.isFinite(choice.index)) return undefined;
  return { chunk: value as Chunk, choice: choice as Choice };
}

export type { AssemblyLimits } from "./answer-assembler.js";

/** Collects a Chat Completions response from validated chunks, streaming text to the handlers as it comes. */
export class ResponseAssembler extends AnswerAssembler implements WireReader {
  readonly noun = "chat completion";
  readonly baseUrlHint = "Check that OPENAI_BASE_URL (or provider.baseUrl) points at an OpenAI-compatible API; it usually ends in /v1.";

  /** One parsed SSE data value; false when it was not a chunk (skipped: a ping, junk). */
  add(value: unknown, raw: string): boolean {
    const plain = plainChunk(value);
    let chunk: Chunk;
    let choice: Choice | undefined;
    if (plain) ({ chunk, choice } = plain);
    else {
      const parsed = schemas().chunk.safeParse(value);
      if (!parsed.success) {
        this.skip(raw);
        return false;
      }
      chunk = parsed.data;
      // Only the first choice is read: the agent never asks for n > 1.
      const first = schemas().choice.safeParse(chunk.choices?.[0]);
      choice = first.success ? first.data : undefined;
    }
    this.seen.pieces++;
    if (chunk.model) this.model = chunk.model;
    if (chunk.usage) this.setChatUsage(chunk.usage);
    if ((chunk.choices ?? []).length === 0 && !chunk.usage) this.seen.emptyChoices++;
    if (!choice) return true;
    if (choice.delta) this.addDelta(choice.delta);
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    return true;
  }

  /** A whole non-streamed `chat.completion`, when the body is one. */
  addJson(value: unknown): boolean {
    const completion = schemas().completion.safeParse(value);
    if (!completion.success) return false;
    this.addCompletion(completion.data);
    return true;
  }

  private addCompletion(completion: z.infer<Schemas["completion"]>): void {
    this.seen.pieces++;
    if (completion.model) this.model = completion.model;
    if (completion.usage) this.setChatUsage(completion.usage);
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

  private setChatUsage(usage: Usage): void {
    this.setUsage({
      inputTokens: usage.prompt_tokens,
      outputTokens: usage.completion_tokens,
      cacheReadTokens: usage.prompt_tokens_details?.cached_tokens ?? undefined,
      reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? undefined,
    });
  }

  private addDelta(delta: Delta): void {
    if (delta.role) this.seen.roles++;
    if (delta.content === null) this.seen.nullContent++;
    this.addReasoning(delta.reasoning_content || delta.reasoning || "");
    // A refusal is the model's answer; it is shown and kept like any other.
    this.addText(delta.content);
    this.addText(delta.refusal, true);
    (delta.tool_calls ?? []).forEach((callDelta, position) => {
      this.addToolCall(callDelta.index ?? position, { id: callDelta.id, name: callDelta.function?.name, arguments: callDelta.function?.arguments });
    });
  }

  /** Says, in a few words, what the endpoint sent when it sent no answer. */
  describeEmpty(): string {
    return this.describe("chunk", "chat completion chunk");
  }
}

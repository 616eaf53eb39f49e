/**
 * What a Responses API endpoint streams (`response.*` events), checked with zod and assembled into one
 * answer: output text and refusals, reasoning summaries (or reasoning text, as open models send it),
 * function calls whose arguments stream in pieces, reasoning items' encrypted content (to pass back), the
 * usage, and how it ended: `response.completed`, `response.incomplete` (max_output_tokens is our "length"),
 * `response.failed` and `error` events (thrown as ProviderErrors of the matching kind).
 */
import { z } from "zod";
import { EventAssembler, type WireReader } from "./answer-assembler.js";
import { ProviderError, type ProviderErrorKind } from "./errors.js";
import { allText, isAbsent, isCount, isRecord, isText, onFirstUse } from "./plain-fields.js";

/**
 * The schemas, built when a piece first needs one: an ordinary stream's events (its deltas, the response and
 * items as the API sends them) are read without zod (below), and building these costs a run ~1–2 ms and some
 * 0.2 MB of zod objects it would not use.
 */
function buildSchemas() {
  const text = z.string().nullish().catch(undefined);
  const count = z.number().nullish().catch(undefined);
  const usage = z.looseObject({
    input_tokens: z.number(),
    output_tokens: z.number(),
    input_tokens_details: z.looseObject({ cached_tokens: count }).nullish().catch(undefined),
    output_tokens_details: z.looseObject({ reasoning_tokens: count }).nullish().catch(undefined),
  });
  const item = z.looseObject({
    type: text,
    id: text,
    call_id: text,
    name: text,
    arguments: text,
    encrypted_content: text,
    content: z
      .array(z.looseObject({ type: text, text, refusal: text }))
      .nullish()
      .catch(undefined),
    summary: z.array(z.looseObject({ text })).nullish().catch(undefined),
  });
  const response = z.looseObject({
    model: text,
    status: text,
    output: z.array(z.unknown()).nullish().catch(undefined),
    usage: usage.nullish().catch(undefined),
    incomplete_details: z.looseObject({ reason: text }).nullish().catch(undefined),
    error: z.looseObject({ code: text, message: text }).nullish().catch(undefined),
  });
  /** Every event is an object with a type; the rest of its fields are read as its type needs them. */
  const event = z.looseObject({
    type: z.string(),
    delta: text,
    item_id: text,
    output_index: z.number().nullish().catch(undefined),
    summary_index: z.number().nullish().catch(undefined),
    arguments: text,
    item: item.nullish().catch(undefined),
    response: response.nullish().catch(undefined),
    code: text,
    message: text,
  });
  return { item, response, event };
}
const schemas = onFirstUse(buildSchemas);

type Item = z.infer<ReturnType<typeof buildSchemas>["item"]>;
type Response = z.infer<ReturnType<typeof buildSchemas>["response"]>;
type Event = z.infer<ReturnType<typeof buildSchemas>["event"]>;

const ITEM_TEXTS = ["type", "id", "call_id", "name", "arguments", "encrypted_content"];
const PART_TEXTS = ["type", "text", "refusal"];

/** Whether `value` is absent, or an array whose every element `check` takes. */
function absentOrEvery(value: unknown, check: (element: unknown) => boolean): boolean {
  if (isAbsent(value)) return true;
  if (!Array.isArray(value)) return false;
  for (const element of value) if (!check(element)) return false;
  return true;
}

/** An output item every field of which has its schema's type (or none): the schema would give back the same. */
function isPlainItem(value: unknown): value is Item {
  if (!isRecord(value) || !allText(value, ITEM_TEXTS)) return false;
  return (
    absentOrEvery(value.content, (part) => isRecord(part) && allText(part, PART_TEXTS)) &&
    absentOrEvery(value.summary, (part) => isRecord(part) && isText(part.text))
  );
}

const isNumber = (value: unknown): boolean => typeof value === "number" && Number.isFinite(value);

/** The same for a whole response (`response.created`, `response.completed`, …). */
function isPlainResponse(value: unknown): value is Response {
  if (!isRecord(value) || !allText(value, ["model", "status"])) return false;
  if (!isAbsent(value.output) && !Array.isArray(value.output)) return false;
  const { usage, incomplete_details: incomplete, error } = value;
  if (!isAbsent(usage)) {
    if (!isRecord(usage) || !isNumber(usage.input_tokens) || !isNumber(usage.output_tokens)) return false;
    const input = usage.input_tokens_details;
    const output = usage.output_tokens_details;
    if (!isAbsent(input) && !(isRecord(input) && isCount(input.cached_tokens))) return false;
    if (!isAbsent(output) && !(isRecord(output) && isCount(output.reasoning_tokens))) return false;
  }
  if (!isAbsent(incomplete) && !(isRecord(incomplete) && isText(incomplete.reason))) return false;
  return isAbsent(error) || (isRecord(error) && allText(error, ["code", "message"]));
}

const EVENT_TEXTS = ["delta", "item_id", "arguments", "code", "message"];

/** An event every field of which is well typed (its item and response too): read without zod. */
export function plainResponsesEvent(value: unknown): Event | undefined {
  if (!isRecord(value) || typeof value.type !== "string") return undefined;
  if (!(isAbsent(value.item) || isPlainItem(value.item)) || !(isAbsent(value.response) || isPlainResponse(value.response))) return undefined;
  if (!allText(value, EVENT_TEXTS) || !isCount(value.output_index) || !isCount(value.summary_index)) return undefined;
  return value as Event;
}

const CONTEXT_LENGTH = /context[_ ]length|context window|too long|maximum context/i;

/** A failure the endpoint reported inside the stream, as the ProviderError of its kind. */
function failure(code: string | null | undefined, message: string | null | undefined): ProviderError {
  const said = `${code ? `${code}: ` : ""}${message ?? "no message"}`;
  let kind: ProviderErrorKind = "server";
  if (/rate_limit/.test(code ?? "")) kind = "rate_limit";
  else if (/quota|billing/.test(code ?? "")) kind = "quota";
  else if (CONTEXT_LENGTH.test(said)) kind = "context_length";
  else if (/invalid_prompt|invalid_request/.test(code ?? "")) kind = "bad_request";
  return new ProviderError(kind, `The model endpoint reported a failure in the stream: ${said}`);
}

export class ResponsesAssembler extends EventAssembler<Event> implements WireReader {
  readonly noun = "Responses API response";
  readonly baseUrlHint =
    'Check that the base URL points at an API with a Responses endpoint (it usually ends in /v1), or set the provider\'s wireApi to "completions".';
  /** Tool call index by the item's id and by its output index. */
  private readonly callIndex = new Map<string, number>();
  private readonly streamedItems = new Set<string>();
  private readonly encrypted: string[] = [];
  private lastSummary: string | undefined;
  private ended = false;
  /** Items that streamed or finished before the final response. */
  private itemsSeen = 0;

  protected get schema(): ReturnType<typeof buildSchemas>["event"] {
    return schemas().event;
  }
  protected plain(candidate: unknown): Event | undefined {
    return plainResponsesEvent(candidate);
  }

  protected apply(event: Event): void | "end" {
    const itemKey = event.item_id ?? (event.output_index !== undefined && event.output_index !== null ? `#${event.output_index}` : "");
    switch (event.type) {
      case "response.created":
      case "response.in_progress":
        if (event.response?.model) this.model = event.response.model;
        return;
      case "response.output_item.added":
        if (event.item?.type === "function_call") this.callFor(event.item, event.output_index);
        return;
      case "response.output_text.delta":
        this.streamedItems.add(itemKey);
        this.addText(event.delta);
        return;
      case "response.refusal.delta":
        this.streamedItems.add(itemKey);
        this.addText(event.delta, true);
        return;
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta": {
        // Summary parts are paragraphs of their own.
        const part = `${itemKey}:${event.summary_index ?? 0}`;
        if (this.lastSummary !== undefined && this.lastSummary !== part && this.reasoning !== "") this.addReasoning("\n\n");
        this.lastSummary = part;
        this.streamedItems.add(itemKey);
        this.addReasoning(event.delta);
        return;
      }
      case "response.function_call_arguments.delta": {
        const index = this.callIndex.get(itemKey) ?? this.callIndex.get(`#${event.output_index}`);
        if (index !== undefined) this.addToolCall(index, { arguments: event.delta });
        return;
      }
      case "response.function_call_arguments.done": {
        const index = this.callIndex.get(itemKey) ?? this.callIndex.get(`#${event.output_index}`);
        if (index !== undefined && event.arguments) this.settleToolArguments(index, event.arguments);
        return;
      }
      case "response.output_item.done":
        if (event.item) this.itemDone(event.item, event.output_index);
        return;
      case "response.completed":
      case "response.incomplete":
        if (event.response) this.finish(event.response);
        return "end";
      case "response.failed":
        throw failure(event.response?.error?.code, event.response?.error?.message);
      case "error":
        throw failure(event.code, event.message);
      default:
        return;
    }
  }

  /** The tool call an item is, registered the first time it is seen. */
  private callFor(item: Item, outputIndex: number | null | undefined): number {
    const keys = [item.id, outputIndex !== undefined && outputIndex !== null ? `#${outputIndex}` : undefined].filter((key): key is string => !!key);
    const known = keys.map((key) => this.callIndex.get(key)).find((index) => index !== undefined);
    const index = known ?? new Set(this.callIndex.values()).size;
    for (const key of keys) this.callIndex.set(key, index);
    if (known === undefined) this.addToolCall(index, { id: item.call_id, name: item.name, arguments: "" });
    return index;
  }

  /** A finished item: what did not stream (a server that sends only whole items) is taken from it. */
  private itemDone(item: Item, outputIndex: number | null | undefined): void {
    this.itemsSeen++;
    const key = item.id ?? `#${outputIndex}`;
    if (item.type === "reasoning") {
      if (item.encrypted_content) this.encrypted.push(item.encrypted_content);
      if (!this.streamedItems.has(key)) this.addReasoning((item.summary ?? []).map((part) => part.text ?? "").join("\n\n"));
    } else if (item.type === "function_call") {
      const index = this.callFor(item, outputIndex);
      if (item.arguments) this.settleToolArguments(index, item.arguments);
    } else if (item.type === "message" && !this.streamedItems.has(key)) {
      for (const part of item.content ?? []) {
        if (part.type === "refusal") this.addText(part.refusal, true);
        else this.addText(part.text);
      }
    }
  }

  private finish(response: Response): void {
    this.ended = true;
    if (response.model) this.model = response.model;
    // A server that streams nothing but the final response: its output is the answer.
    if (this.itemsSeen === 0 && this.streamedItems.size === 0) response.output?.forEach((item, index) => this.readItem(item, index));
    if (response.usage) {
      this.setUsage({
        inputTokens: response.usage.input_tokens,
        outputTokens: response.usage.output_tokens,
        cacheReadTokens: response.usage.input_tokens_details?.cached_tokens ?? undefined,
        reasoningTokens: response.usage.output_tokens_details?.reasoning_tokens ?? undefined,
      });
    }
    const reason = response.incomplete_details?.reason;
    if (response.status === "incomplete")
      this.finishReason = reason === "max_output_tokens" ? "length" : reason === "content_filter" ? "content_filter" : (reason ?? "length");
    else this.finishReason = this.toolCalls.length > 0 ? "tool_calls" : "stop";
    if (this.encrypted.length > 0) this.encryptedContent = this.encrypted.join("\n");
  }

  private readItem(item: unknown, index: number): void {
    if (isPlainItem(item)) return this.itemDone(item, index);
    const parsed = schemas().item.safeParse(item);
    if (parsed.success) this.itemDone(parsed.data, index);
  }

  /** A whole non-streamed `response` object. */
  addJson(value: unknown): boolean {
    const parsed = isPlainResponse(value) ? { success: true as const, data: value } : schemas().response.safeParse(value);
    if (!parsed.success || !Array.isArray(parsed.data.output)) return false;
    if (parsed.data.status === "failed") throw failure(parsed.data.error?.code, parsed.data.error?.message);
    this.seen.pieces++;
    this.finish(parsed.data);
    return true;
  }

  describeEmpty(): string {
    return this.describe("event", "Responses API event", this.ended ? [] : ["no response.completed"]);
  }
}

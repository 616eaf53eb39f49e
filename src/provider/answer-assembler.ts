/**
 * One streamed answer being put together, whatever the wire: text and reasoning passed on to the handlers
 * as they come, tool calls assembled by their position, usage, the finish reason (in Chat Completions' words:
 * stop, tool_calls, length, content_filter), the reasoning's opaque part to pass back, and an account of
 * what arrived, so an answer with nothing in it can say what the endpoint sent instead. Each wire's reader
 * (chat-chunks.ts, responses-events.ts, anthropic-events.ts) validates its own pieces and feeds them here.
 */
import type { z } from "zod";
import { ProviderError } from "./errors.js";
import type { ChatResponse, StreamHandlers } from "./types.js";
import { monotonicMs } from "../util/monotonic-clock.js";

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

/** What a wire reader needs from the shared response reader (model-response.ts). */
export interface WireReader {
  /** What one complete answer is called on this wire ("chat completion"), for messages. */
  readonly noun: string;
  /** Where the base URL is set and what it should look like, for an answer from something else entirely. */
  readonly baseUrlHint: string;
  readonly usable: boolean;
  readonly finishReason: string | null;
  markDone(): void;
  skip(raw: string): void;
  /**
   * One JSON value from the stream, with its SSE event name: true when it was a piece of the answer, false when
   * it was not (skipped, or a ping that only keeps the connection open), "end" when the answer is complete.
   */
  add(value: unknown, raw: string, eventName: string | undefined): boolean | "end";
  /** A whole JSON body: true when it was read as a non-streamed answer. */
  addJson(value: unknown): boolean;
  describeEmpty(): string;
}

export class AnswerAssembler {
  content = "";
  reasoning = "";
  finishReason: string | null = null;
  model: string;
  usage: ChatResponse["usage"];
  firstTokenAt: number | undefined;
  /** The reasoning's opaque part (encrypted content, thinking signatures), to be passed back. */
  encryptedContent: string | undefined;
  reasoningOpaque: string | undefined;
  /** What came in, for describing a response without an answer. */
  protected readonly seen = { pieces: 0, skipped: 0, firstSkipped: "", roles: 0, nullContent: 0, emptyChoices: 0, usage: 0, refusal: false, done: false };
  private readonly calls = new Map<number, PartialToolCall>();
  private outputPieces = 0;
  private outputChars = 0;

  constructor(
    model: string,
    private readonly handlers: StreamHandlers,
    private readonly limits: AssemblyLimits,
  ) {
    this.model = model;
  }

  /** The stream's end marker arrived (`[DONE]`). */
  markDone(): void {
    this.seen.done = true;
  }

  /** A data line that was not a piece of an answer (not JSON, a scalar, `{}`, …): skipped, but remembered. */
  skip(raw: string): void {
    this.seen.skipped++;
    if (this.seen.firstSkipped === "") this.seen.firstSkipped = raw.length > 60 ? `${raw.slice(0, 60)}…` : raw;
  }

  protected countOutput(piece: string): void {
    this.firstTokenAt ??= monotonicMs();
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

  protected addText(piece: string | null | undefined, refusal = false): void {
    if (!piece) return;
    if (refusal) this.seen.refusal = true;
    this.countOutput(piece);
    this.content += piece;
    this.handlers.onText(piece);
  }

  protected addReasoning(piece: string | null | undefined): void {
    if (!piece) return;
    this.countOutput(piece);
    this.reasoning += piece;
    this.handlers.onReasoning(piece);
  }

  /** A piece of the tool call at `index`: its id and name (once known) and a fragment of its arguments. */
  protected addToolCall(index: number, piece: { id?: string | null; name?: string | null; arguments?: string | null }): void {
    let call = this.calls.get(index);
    if (!call) {
      call = { id: "", name: "", arguments: "", announced: false };
      this.calls.set(index, call);
    }
    if (piece.id && !call.id) call.id = piece.id;
    if (piece.name && !call.name) call.name = piece.name;
    const args = piece.arguments ?? "";
    this.countOutput(args || " ");
    call.arguments += args;
    if (call.name && !call.announced) {
      call.announced = true;
      this.handlers.onToolCallStart?.({ id: call.id, name: call.name, index });
    }
  }

  /** The arguments of the call at `index` as the endpoint finally gave them (replacing the streamed ones). */
  protected settleToolArguments(index: number, args: string): void {
    const call = this.calls.get(index);
    if (call && args !== "" && call.arguments !== args) call.arguments = args;
  }

  protected setUsage(usage: NonNullable<ChatResponse["usage"]>): void {
    this.seen.usage++;
    this.usage = usage;
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

  /** The answer, once read. */
  response(started: number): ChatResponse {
    return {
      content: this.content,
      reasoning: this.reasoning,
      toolCalls: this.toolCalls,
      usage: this.usage,
      finishReason: this.finishReason,
      // Every wire's reader names a cut by the output limit "length" (max_output_tokens, max_tokens).
      truncated: this.finishReason === "length",
      model: this.model,
      ...(this.encryptedContent ? { encryptedContent: this.encryptedContent } : {}),
      ...(this.reasoningOpaque ? { reasoningOpaque: this.reasoningOpaque } : {}),
      timeToFirstTokenMs: this.firstTokenAt === undefined ? undefined : Math.round(this.firstTokenAt - started),
    };
  }

  /**
   * Says, in a few words, what the endpoint sent when it sent no answer. `unit` names a piece ("chunk",
   * "event"), `noun` what a data line should have been ("chat completion chunk").
   */
  protected describe(unit: string, noun: string, extra: string[] = []): string {
    const { seen } = this;
    if (seen.pieces === 0 && seen.skipped === 0) return seen.done ? `only [DONE], no ${unit}s` : "an empty stream";
    const parts: string[] = [];
    if (seen.pieces > 0) {
      const what: string[] = [];
      if (seen.roles > 0) what.push("a role");
      if (seen.nullContent > 0) what.push("content: null");
      if (this.content !== "") what.push("only whitespace");
      if (this.reasoning !== "") what.push("reasoning");
      what.push(...extra);
      if (seen.usage > 0) what.push("usage");
      if (seen.emptyChoices > 0) what.push("no choices");
      if (this.finishReason) what.push(`finish_reason "${this.finishReason}"`);
      parts.push(`${seen.pieces} ${unit}${seen.pieces === 1 ? "" : "s"}${what.length > 0 ? ` with ${what.join(", ")}` : ""} but no text or tool call`);
    }
    if (seen.skipped > 0)
      parts.push(
        `${seen.skipped} data line${seen.skipped === 1 ? "" : "s"} that ${seen.skipped === 1 ? "was" : "were"} not a ${noun} (${JSON.stringify(seen.firstSkipped)})`,
      );
    return parts.join("; ");
  }
}

/**
 * An assembler for a wire whose stream is typed events (`{"type": …}`, the Responses API's and Anthropic's):
 * each value is checked against the wire's event schema (its type taken from the SSE event name when the data
 * lacks one) and applied; what is not an event is skipped and remembered. An event whose fields already have
 * their schema's types (the deltas, one per token) is taken as it is, without zod's copy (see plain-fields.ts).
 */
export abstract class EventAssembler<Event extends { type: string }> extends AnswerAssembler {
  protected abstract readonly schema: z.ZodType<Event>;
  protected abstract apply(event: Event): void | "end";

  /** The event as it is when zod would give back the same values (see plain-fields.ts), else undefined. */
  protected abstract plain(candidate: unknown): Event | undefined;

  add(value: unknown, raw: string, eventName: string | undefined): boolean | "end" {
    const candidate = typeof value === "object" && value !== null && !("type" in value) && eventName ? { ...value, type: eventName } : value;
    let event = this.plain(candidate);
    if (!event) {
      // jitless: a stream has only a handful of such events (its start and end), too few to repay compiling
      // zod's fast path for these nested schemas; the per-token deltas take the plain path above.
      const parsed = this.schema.safeParse(candidate, { jitless: true });
      if (!parsed.success) {
        this.skip(raw);
        return false;
      }
      event = parsed.data;
    }
    // Anthropic's `ping` (and any wire's event of that name) only keeps the connection open.
    if (event.type === "ping") return false;
    this.seen.pieces++;
    return this.apply(event) ?? true;
  }
}

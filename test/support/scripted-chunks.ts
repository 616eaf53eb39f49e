/**
 * Pure rendering of a `StreamResponse` into OpenAI wire objects:
 * `chat.completion.chunk`s for SSE, or one `chat.completion` for non-streamed requests. The other wires
 * render the same steps (scripted-wire-frames.ts).
 */
import type { ChatRequestBody, ScriptedUsage, StreamResponse } from "./scripted-responses.js";

export type JsonObject = Record<string, unknown>;

export interface RenderContext {
  /** e.g. "chatcmpl-scripted-3" */
  id: string;
  /** Unix seconds. */
  created: number;
  model: string;
  /** 0-based completion request index, used for default tool call ids. */
  index: number;
  request: ChatRequestBody;
  /** The request as its wire sent it (what only that wire has, e.g. a Responses request's `include`). */
  wireBody?: unknown;
}

const DEFAULT_CHUNK_SIZE = 8;

/** Split into pieces of `size` code points (never splits a surrogate pair). */
export function splitText(text: string, size: number = DEFAULT_CHUNK_SIZE): string[] {
  const points = Array.from(text);
  const step = Math.max(1, Math.floor(size));
  const pieces: string[] = [];
  for (let i = 0; i < points.length; i += step) pieces.push(points.slice(i, i + step).join(""));
  return pieces;
}

/** Rough token estimate: ≈ 4 characters per token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

interface ResolvedToolCall {
  id: string;
  name: string;
  arguments: string;
}

function resolveToolCalls(resp: StreamResponse, ctx: RenderContext): ResolvedToolCall[] {
  return (resp.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `call_${ctx.index}_${i}`,
    name: call.name,
    arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
  }));
}

/** The usage to report (explicit, or estimated from the request and response sizes). */
export function usageOf(resp: StreamResponse, ctx: RenderContext): ScriptedUsage | undefined {
  if (resp.usage === false) return undefined;
  if (resp.usage) {
    return { ...resp.usage, total_tokens: resp.usage.total_tokens ?? resp.usage.prompt_tokens + resp.usage.completion_tokens };
  }
  const output =
    (resp.reasoning ?? "") +
    (resp.text ?? "") +
    resolveToolCalls(resp, ctx)
      .map((c) => c.name + c.arguments)
      .join("");
  const prompt_tokens = estimateTokens(JSON.stringify(ctx.request.messages));
  const completion_tokens = Math.max(1, estimateTokens(output));
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

/** One piece of a streamed answer, whatever the wire: each becomes one chat chunk (and one group of frames on the other wires). */
export type StreamStep =
  | { kind: "reasoning"; text: string }
  | { kind: "text"; text: string }
  | { kind: "tool_start"; index: number; id: string; name: string }
  | { kind: "tool_args"; index: number; text: string };

/** The pieces of a streamed answer in order: reasoning, text, then each tool call's header and argument fragments. */
export function streamSteps(resp: StreamResponse, ctx: RenderContext): StreamStep[] {
  const size = resp.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const steps: StreamStep[] = [];
  for (const piece of splitText(resp.reasoning ?? "", size)) steps.push({ kind: "reasoning", text: piece });
  for (const piece of splitText(resp.text ?? "", size)) steps.push({ kind: "text", text: piece });
  resolveToolCalls(resp, ctx).forEach((call, index) => {
    steps.push({ kind: "tool_start", index, id: call.id, name: call.name });
    for (const fragment of splitText(call.arguments, size)) steps.push({ kind: "tool_args", index, text: fragment });
  });
  if (steps.length === 0) steps.push({ kind: "text", text: "" });
  return steps;
}

/** The finish reason in Chat Completions' words (the other wires translate it). */
export function finishReasonOf(resp: StreamResponse): string {
  return resp.finishReason ?? ((resp.toolCalls?.length ?? 0) > 0 ? "tool_calls" : "stop");
}

/** All `chat.completion.chunk` objects for a streamed response (without the final `[DONE]`). */
export function buildStreamChunks(resp: StreamResponse, ctx: RenderContext): JsonObject[] {
  const includeUsage = ctx.request.stream_options?.include_usage === true;
  const reasoningField = resp.reasoningField ?? "reasoning_content";
  const deltas: JsonObject[] = streamSteps(resp, ctx).map((step) => {
    switch (step.kind) {
      case "reasoning":
        return { [reasoningField]: step.text };
      case "text":
        return { content: step.text };
      case "tool_start":
        return { tool_calls: [{ index: step.index, id: step.id, type: "function", function: { name: step.name, arguments: "" } }] };
      case "tool_args":
        return { tool_calls: [{ index: step.index, function: { arguments: step.text } }] };
    }
  });
  const first = deltas[0];
  if (first) deltas[0] = { role: "assistant", ...first };

  const chunk = (choices: JsonObject[], extra: JsonObject = {}): JsonObject => ({
    id: ctx.id,
    object: "chat.completion.chunk",
    created: ctx.created,
    model: ctx.model,
    choices,
    ...(includeUsage ? { usage: null } : {}),
    ...extra,
  });
  const chunks = deltas.map((delta) => chunk([{ index: 0, delta, finish_reason: null }]));
  chunks.push(chunk([{ index: 0, delta: {}, finish_reason: finishReasonOf(resp) }]));
  const usage = includeUsage ? usageOf(resp, ctx) : undefined;
  if (usage) chunks.push(chunk([], { usage }));
  return chunks;
}

/** The non-streamed `chat.completion` equivalent of a `StreamResponse`. */
export function buildCompletionBody(resp: StreamResponse, ctx: RenderContext): JsonObject {
  const calls = resolveToolCalls(resp, ctx);
  const message: JsonObject = { role: "assistant", content: resp.text ?? (calls.length > 0 ? null : ""), refusal: null };
  if (resp.reasoning !== undefined) message[resp.reasoningField ?? "reasoning_content"] = resp.reasoning;
  if (calls.length > 0) {
    message["tool_calls"] = calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
  }
  const usage = usageOf(resp, ctx);
  return {
    id: ctx.id,
    object: "chat.completion",
    created: ctx.created,
    model: ctx.model,
    choices: [{ index: 0, message, finish_reason: finishReasonOf(resp), logprobs: null }],
    ...(usage ? { usage } : {}),
  };
}

/**
 * A `StreamResponse` as server-sent events on each wire, in groups: one group per Chat Completions chunk
 * (the same steps: scripted-chunks.ts), so `dropAfterChunks` and `hangAfterChunks` stop each wire at the
 * same point of the answer. Responses: `response.*` events (items opened and closed around their deltas,
 * `response.completed` or `response.incomplete` with the usage). Anthropic: `message_start`, content blocks
 * (thinking with its signature, text, tool_use with `input_json_delta`), `message_delta`, `message_stop`.
 */
import { buildStreamChunks, finishReasonOf, streamSteps, usageOf, type JsonObject, type RenderContext } from "./scripted-chunks.js";
import type { ScriptedUsage, StreamResponse } from "./scripted-responses.js";
import type { Wire } from "./scripted-wires.js";

const event = (type: string, data: JsonObject): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** The groups of SSE text for a streamed response on `wire`: one per chat chunk, the last one standing for `[DONE]`. */
export function buildWireFrames(wire: Wire, resp: StreamResponse, ctx: RenderContext): string[][] {
  if (wire === "responses") return responsesFrames(resp, ctx);
  if (wire === "anthropic") return anthropicFrames(resp, ctx);
  return [...buildStreamChunks(resp, ctx).map((chunk) => [`data: ${JSON.stringify(chunk)}\n\n`]), ["data: [DONE]\n\n"]];
}

/** What the model's reasoning comes back as when it is opaque: encrypted content, a thinking block's signature. */
function opaqueOf(resp: StreamResponse, ctx: RenderContext): string {
  return resp.encryptedContent ?? `opaque-${ctx.index}-${Buffer.from(resp.reasoning ?? "").toString("base64")}`;
}

// ---------------------------------------------------------------- Responses

function responsesUsage(usage: ScriptedUsage): JsonObject {
  return {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: { cached_tokens: usage.prompt_tokens_details?.cached_tokens ?? 0 },
    output_tokens: usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: usage.completion_tokens_details?.reasoning_tokens ?? 0 },
    total_tokens: usage.total_tokens ?? usage.prompt_tokens + usage.completion_tokens,
  };
}

function responsesFrames(resp: StreamResponse, ctx: RenderContext): string[][] {
  const wireBody = typeof ctx.wireBody === "object" && ctx.wireBody !== null ? (ctx.wireBody as JsonObject) : {};
  const include = Array.isArray(wireBody.include) ? (wireBody.include as unknown[]) : [];
  const encrypted = include.includes("reasoning.encrypted_content");
  const response = { id: `resp_scripted_${ctx.index}`, object: "response", created_at: ctx.created, model: ctx.model };
  const output: JsonObject[] = [];
  let open: { kind: "reasoning" | "message" | "function_call"; outputIndex: number; item: JsonObject; text: string } | undefined;
  const close = (): string[] => {
    if (!open) return [];
    const { kind, outputIndex, item, text } = open;
    const at = { item_id: item.id, output_index: outputIndex };
    const frames: string[] = [];
    let done: JsonObject;
    if (kind === "reasoning") {
      frames.push(event("response.reasoning_summary_text.done", { ...at, summary_index: 0, text }));
      frames.push(event("response.reasoning_summary_part.done", { ...at, summary_index: 0, part: { type: "summary_text", text } }));
      done = { ...item, summary: [{ type: "summary_text", text }], ...(encrypted ? { encrypted_content: opaqueOf(resp, ctx) } : {}) };
    } else if (kind === "message") {
      const part = { type: "output_text", text, annotations: [] };
      frames.push(event("response.output_text.done", { ...at, content_index: 0, text }));
      frames.push(event("response.content_part.done", { ...at, content_index: 0, part }));
      done = { ...item, status: "completed", content: [part] };
    } else {
      frames.push(event("response.function_call_arguments.done", { ...at, arguments: text }));
      done = { ...item, status: "completed", arguments: text };
    }
    frames.push(event("response.output_item.done", { output_index: outputIndex, item: done }));
    output.push(done);
    open = undefined;
    return frames;
  };
  /** Closes the open item, then opens one; `make` gets the new item's id (items are numbered by their output index). */
  const openItem = (kind: "reasoning" | "message" | "function_call", make: (id: string) => JsonObject): string[] => {
    const frames = close();
    const prefix = kind === "reasoning" ? "rs" : kind === "message" ? "msg" : "fc";
    const item = make(`${prefix}_${ctx.index}_${output.length}`);
    open = { kind, outputIndex: output.length, item, text: "" };
    frames.push(event("response.output_item.added", { output_index: open.outputIndex, item }));
    const at = { item_id: item.id, output_index: open.outputIndex };
    if (kind === "reasoning")
      frames.push(event("response.reasoning_summary_part.added", { ...at, summary_index: 0, part: { type: "summary_text", text: "" } }));
    if (kind === "message")
      frames.push(event("response.content_part.added", { ...at, content_index: 0, part: { type: "output_text", text: "", annotations: [] } }));
    return frames;
  };
  const groups: string[][] = streamSteps(resp, ctx).map((step) => {
    const frames: string[] = [];
    if (step.kind === "reasoning") {
      if (open?.kind !== "reasoning") frames.push(...openItem("reasoning", (id) => ({ id, type: "reasoning", summary: [] })));
    } else if (step.kind === "text") {
      if (open?.kind !== "message") {
        frames.push(...openItem("message", (id) => ({ id, type: "message", status: "in_progress", role: "assistant", content: [] })));
      }
    } else if (step.kind === "tool_start") {
      frames.push(
        ...openItem("function_call", (id) => ({ id, type: "function_call", status: "in_progress", call_id: step.id, name: step.name, arguments: "" })),
      );
      return frames;
    }
    const current = open as { kind: string; outputIndex: number; item: JsonObject; text: string };
    current.text += step.text;
    const at = { item_id: current.item.id, output_index: current.outputIndex };
    if (step.kind === "reasoning") frames.push(event("response.reasoning_summary_text.delta", { ...at, summary_index: 0, delta: step.text }));
    else if (step.kind === "text") frames.push(event("response.output_text.delta", { ...at, content_index: 0, delta: step.text }));
    else frames.push(event("response.function_call_arguments.delta", { ...at, delta: step.text }));
    return frames;
  });
  groups[0]?.unshift(event("response.created", { response: { ...response, status: "in_progress", output: [] } }));
  const reason = finishReasonOf(resp);
  const usage = usageOf(resp, ctx);
  const terminal = (): string => {
    const incomplete = reason === "length" ? "max_output_tokens" : reason === "content_filter" ? "content_filter" : undefined;
    const final = {
      ...response,
      status: incomplete ? "incomplete" : "completed",
      ...(incomplete ? { incomplete_details: { reason: incomplete } } : {}),
      output,
      ...(usage ? { usage: responsesUsage(usage) } : {}),
    };
    return event(incomplete ? "response.incomplete" : "response.completed", { response: final });
  };
  const finish = close();
  if (usage) groups.push(finish, [terminal()], []);
  else groups.push([...finish, terminal()], []);
  return groups;
}

// ---------------------------------------------------------------- Anthropic

const STOP_REASONS: Record<string, string> = { stop: "end_turn", tool_calls: "tool_use", length: "max_tokens", content_filter: "refusal" };

function anthropicFrames(resp: StreamResponse, ctx: RenderContext): string[][] {
  const usage = usageOf(resp, ctx);
  let index = -1;
  let open: "thinking" | "text" | "tool_use" | undefined;
  const close = (): string[] => {
    if (!open) return [];
    const frames: string[] = [];
    if (open === "thinking") frames.push(event("content_block_delta", { index, delta: { type: "signature_delta", signature: opaqueOf(resp, ctx) } }));
    frames.push(event("content_block_stop", { index }));
    open = undefined;
    return frames;
  };
  const start = (kind: "thinking" | "text" | "tool_use", block: JsonObject): string[] => {
    const frames = close();
    index++;
    open = kind;
    frames.push(event("content_block_start", { index, content_block: block }));
    return frames;
  };
  const groups: string[][] = streamSteps(resp, ctx).map((step) => {
    const frames: string[] = [];
    if (step.kind === "reasoning") {
      if (open !== "thinking") frames.push(...start("thinking", { type: "thinking", thinking: "", signature: "" }));
      frames.push(event("content_block_delta", { index, delta: { type: "thinking_delta", thinking: step.text } }));
    } else if (step.kind === "text") {
      if (open !== "text") frames.push(...start("text", { type: "text", text: "" }));
      if (step.text !== "") frames.push(event("content_block_delta", { index, delta: { type: "text_delta", text: step.text } }));
    } else if (step.kind === "tool_start") {
      frames.push(...start("tool_use", { type: "tool_use", id: step.id, name: step.name, input: {} }));
    } else {
      frames.push(event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: step.text } }));
    }
    return frames;
  });
  const message = {
    id: `msg_scripted_${ctx.index}`,
    type: "message",
    role: "assistant",
    model: ctx.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    ...(usage
      ? {
          usage: {
            input_tokens: usage.prompt_tokens - (usage.prompt_tokens_details?.cached_tokens ?? 0),
            cache_read_input_tokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
            cache_creation_input_tokens: 0,
            output_tokens: 1,
          },
        }
      : {}),
  };
  groups[0]?.unshift(event("message_start", { message }), event("ping", {}));
  const reason = finishReasonOf(resp);
  const delta = event("message_delta", {
    delta: { stop_reason: STOP_REASONS[reason] ?? reason, stop_sequence: null },
    ...(usage ? { usage: { output_tokens: usage.completion_tokens } } : {}),
  });
  const finish = [...close(), delta];
  if (usage) groups.push(finish, [event("message_stop", {})], []);
  else groups.push([...finish, event("message_stop", {})], []);
  return groups;
}

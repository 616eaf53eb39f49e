/** Small helpers for tests that talk to the scripted server through the real `openai` client. */
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";

/** A streamed request with usage, as the agent sends it. */
export function streamRequest(content: string, extra: Partial<ChatCompletionCreateParamsStreaming> = {}): ChatCompletionCreateParamsStreaming {
  return {
    model: "m",
    messages: [{ role: "user", content }],
    stream: true,
    stream_options: { include_usage: true },
    ...extra,
  };
}

export interface CollectedToolCall {
  id: string | undefined;
  name: string;
  arguments: string;
}

export interface CollectedStream {
  chunks: ChatCompletionChunk[];
  content: string;
  contentChunks: number;
  /** Concatenated `delta.reasoning_content`. */
  reasoning: string;
  /** Concatenated `delta.reasoning`. */
  reasoningViaAltField: string;
  toolCalls: CollectedToolCall[];
  finishReason: string | undefined;
  usage: ChatCompletionChunk["usage"] | undefined;
  usageChunk: ChatCompletionChunk | undefined;
}

/** Consume a stream and assemble its deltas the way a client must (tool calls by `index`). */
export async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<CollectedStream> {
  const result: CollectedStream = {
    chunks: [],
    content: "",
    contentChunks: 0,
    reasoning: "",
    reasoningViaAltField: "",
    toolCalls: [],
    finishReason: undefined,
    usage: undefined,
    usageChunk: undefined,
  };
  for await (const chunk of stream) {
    result.chunks.push(chunk);
    if (chunk.usage) {
      result.usage = chunk.usage;
      result.usageChunk = chunk;
    }
    const choice = chunk.choices[0];
    if (!choice) continue;
    const delta = choice.delta as ChatCompletionChunk.Choice.Delta & Record<string, unknown>;
    if (typeof delta.content === "string" && delta.content !== "") {
      result.content += delta.content;
      result.contentChunks++;
    }
    if (typeof delta["reasoning_content"] === "string") result.reasoning += delta["reasoning_content"];
    if (typeof delta["reasoning"] === "string") result.reasoningViaAltField += delta["reasoning"];
    for (const call of delta.tool_calls ?? []) {
      const slot = (result.toolCalls[call.index] ??= { id: undefined, name: "", arguments: "" });
      if (call.id) slot.id = call.id;
      if (call.function?.name) slot.name += call.function.name;
      if (call.function?.arguments) slot.arguments += call.function.arguments;
    }
    if (choice.finish_reason) result.finishReason = choice.finish_reason;
  }
  return result;
}

/**
 * One model call, streamed, with the retry policy around it. Deltas go out as ephemeral events; a retried
 * attempt is announced with assistant.turn_retry so subscribers drop what the abandoned attempt streamed.
 */
import { randomUUID } from "../util/random-id.js";
import { classifyProviderError, type ProviderError } from "../provider/errors.js";
import { decideRetry, sleep, type RetryPolicy } from "../provider/retry.js";
import type { ChatMessage, ChatProvider, ChatResponse, ToolSchema } from "../provider/types.js";
import type { EventData, EventType } from "../protocol/events/index.js";
import { monotonicMs } from "../util/monotonic-clock.js";

/** Where the call's deltas and retries go (the agent's emit; a compaction's call shows nothing). */
export type ModelCallEmit = <T extends EventType>(type: T, data: EventData<T>) => unknown;

export type ModelCallResult =
  | { kind: "response"; response: ChatResponse; messageId: string; reasoningId: string; durationMs: number }
  | { kind: "error"; error: ProviderError; reason?: string; durationMs: number }
  | { kind: "aborted"; partialText: string; messageId: string; durationMs: number };

export interface ModelCallInput {
  provider: ChatProvider;
  retry: RetryPolicy;
  emit: ModelCallEmit;
  turnId: string;
  messages: ChatMessage[];
  tools: ToolSchema[];
  toolChoice?: "none";
  headers?: Record<string, string>;
  signal: AbortSignal;
  random?: () => number;
  /** Called as each attempt is sent, retries included: every request counts, whatever becomes of it. */
  onRequest?(): void;
}

export async function callModel(input: ModelCallInput): Promise<ModelCallResult> {
  const { provider, emit, signal } = input;
  const started = monotonicMs();
  const elapsed = () => Math.round(monotonicMs() - started);
  let unreachableSoFar = true;
  for (let attempt = 0; ; attempt++) {
    const messageId = randomUUID();
    const reasoningId = randomUUID();
    let partialText = "";
    input.onRequest?.();
    try {
      const response = await provider.stream(
        {
          messages: input.messages,
          tools: input.tools,
          signal,
          ...(input.toolChoice ? { toolChoice: input.toolChoice } : {}),
          ...(input.headers ? { headers: input.headers } : {}),
        },
        {
          onText: (deltaContent) => {
            partialText += deltaContent;
            emit("assistant.message_delta", { messageId, deltaContent });
          },
          onReasoning: (deltaContent) => emit("assistant.reasoning_delta", { reasoningId, deltaContent }),
        },
      );
      return { kind: "response", response, messageId, reasoningId, durationMs: elapsed() };
    } catch (thrown) {
      const error = classifyProviderError(thrown, signal);
      if (error.kind === "aborted") return { kind: "aborted", partialText, messageId, durationMs: elapsed() };
      const decision = decideRetry(error, attempt, input.retry, (input.random ?? Math.random)(), unreachableSoFar);
      unreachableSoFar &&= error.details.unreachable === true;
      if (!decision.retry) return { kind: "error", error, reason: decision.reason, durationMs: elapsed() };
      emit("assistant.turn_retry", {
        turnId: input.turnId,
        model: provider.model,
        reason: error.message,
        attempt: attempt + 1,
        delayMs: decision.delayMs,
        abandonedMessageId: messageId,
      });
      try {
        await sleep(decision.delayMs, signal);
      } catch {
        return { kind: "aborted", partialText: "", messageId, durationMs: elapsed() };
      }
    }
  }
}

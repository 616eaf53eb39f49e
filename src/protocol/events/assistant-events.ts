import { z } from "zod";
import { ephemeral, persisted } from "./define-event.js";
import { toolRequestSchema } from "./shared-schemas.js";

/** assistant.*: one model call's lifecycle, from turn start through deltas to the complete message. */
export const assistantEvents = {
  "assistant.turn_start": persisted(z.object({ turnId: z.string(), model: z.string().optional(), interactionId: z.string().optional() })),
  /** A retried model call inside the same turn: deltas of the abandoned attempt are to be discarded. */
  "assistant.turn_retry": ephemeral(
    z.object({
      turnId: z.string(),
      model: z.string().optional(),
      reason: z.string().optional(),
      attempt: z.number().optional(),
      delayMs: z.number().optional(),
      abandonedMessageId: z.string().optional(),
    }),
  ),
  "assistant.intent": ephemeral(z.object({ intent: z.string() })),
  "assistant.reasoning": persisted(z.object({ reasoningId: z.string(), content: z.string() })),
  "assistant.reasoning_delta": ephemeral(z.object({ reasoningId: z.string(), deltaContent: z.string() })),
  "assistant.streaming_delta": ephemeral(z.object({ totalResponseSizeBytes: z.number() })),
  "assistant.message": persisted(
    z.object({
      messageId: z.string(),
      content: z.string(),
      toolRequests: z.array(toolRequestSchema).optional(),
      reasoningOpaque: z.string().optional(),
      reasoningText: z.string().optional(),
      encryptedContent: z.string().optional(),
      phase: z.string().optional(),
      model: z.string().optional(),
      outputTokens: z.number().optional(),
      interactionId: z.string().optional(),
      turnId: z.string().optional(),
      /** The model's finish reason; `length` means the answer was cut at the output-token limit. */
      finishReason: z.string().optional(),
      /** Set when the stream was interrupted and this is what had arrived. */
      interrupted: z.boolean().optional(),
      parentToolCallId: z.string().optional(),
    }),
  ),
  "assistant.message_delta": ephemeral(z.object({ messageId: z.string(), deltaContent: z.string(), parentToolCallId: z.string().optional() })),
  "assistant.turn_end": persisted(z.object({ turnId: z.string(), model: z.string().optional() })),
  "assistant.usage": ephemeral(
    z.object({
      model: z.string(),
      inputTokens: z.number().optional(),
      outputTokens: z.number().optional(),
      cacheReadTokens: z.number().optional(),
      reasoningTokens: z.number().optional(),
      cost: z.number().optional(),
      duration: z.number().optional(),
      timeToFirstTokenMs: z.number().optional(),
      isByok: z.boolean().optional(),
      apiEndpoint: z.string().optional(),
      parentToolCallId: z.string().optional(),
    }),
  ),
} as const;

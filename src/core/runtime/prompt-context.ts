/**
 * What one prompt of an agent runs with, built from its runtime's options: the loop's context (the provider
 * and tools of the moment, steering before each call, the budget's stop, compaction, the doom-loop guard
 * for the whole prompt) and the prompt's own (the mode's continuations, stop hooks).
 */
import type { PromptRunContext } from "../prompt-run.js";
import type { Compactor } from "../compaction/compactor.js";
import type { Emit } from "../event-sink.js";
import type { AgentRuntimeOptions } from "./agent-runtime.js";
import type { PromptInput } from "./prompt-queue.js";
import { RepeatGuard } from "./repeat-guard.js";

/** What the runtime itself lends the prompt. */
export interface RuntimeParts {
  /** The runtime's emit (it keeps the prompt's answer). */
  emit: Emit;
  /** Notifications and steering before a model call; true when a person's message joined. */
  deliverSteering(signal: AbortSignal): Promise<boolean>;
  hasSteering(): boolean;
  compactor?: Compactor;
}

export function promptContext(options: AgentRuntimeOptions, input: PromptInput, parts: RuntimeParts): PromptRunContext {
  const { emit } = parts;
  // Kept for the whole prompt, autopilot's continuations included; a person's steering starts the count again.
  const repeats = new RepeatGuard(options.unattended ?? (() => options.preset().mode === "autopilot"));
  return {
    loop: {
      emit,
      conversation: options.conversation,
      provider: options.provider(),
      retry: options.retry,
      tools: options.tools,
      toolEnvironment: options.toolEnvironment,
      nextTurnId: options.nextTurnId,
      recordRequest: options.recordRequest,
      recordCall: options.recordCall,
      onTurnEnd: options.onTurnEnd,
      beforeModelCall: async (signal) => {
        const delivered = await parts.deliverSteering(signal);
        if (delivered) repeats.reset();
        return delivered;
      },
      hasPendingInput: parts.hasSteering,
      ...(options.stopBeforeCall ? { stopBeforeCall: options.stopBeforeCall } : {}),
      ...(parts.compactor ? { compaction: parts.compactor } : {}),
      ...(input.withoutTools ? { toolChoice: "none" as const } : {}),
      ...(input.requestHeaders ? { requestHeaders: input.requestHeaders } : {}),
      repeats,
    },
    emit,
    preset: options.preset,
    maxContinues: options.maxContinues,
    ...(options.objective ? { objective: options.objective } : {}),
    continueWith: (message) => emit("user.message", options.userMessage({ prompt: message, source: "autopilot" }, { continuation: true })),
    ...(options.awaitBackground ? { awaitBackground: options.awaitBackground } : {}),
    ...(options.onStop ? { onStop: options.onStop } : {}),
    continueForHook: (reason) => emit("user.message", options.userMessage({ prompt: reason, source: "hook" }, {})),
  };
}

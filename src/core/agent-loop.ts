/**
 * Seed 000's loop and nothing else: send the whole history, stream the answer, run the tools it asks for,
 * feed the results back, call again; a response without tool requests ends the loop. One model call per
 * turn, one assistant.turn_start/turn_end pair per call, no hidden calls. Its edges: a response cut by the
 * output limit (runtime/output-limit.ts) and the same call made again and again (runtime/repeat-guard.ts).
 */
import type { RetryPolicy } from "../provider/retry.js";
import type { ChatProvider } from "../provider/types.js";
import type { Compactor } from "./compaction/compactor.js";
import type { Conversation } from "./conversation.js";
import type { ToolRequest } from "../protocol/events/index.js";
import type { Emit } from "./event-sink.js";
import { callModel } from "./model-call.js";
import { parseToolArguments } from "./tool-arguments.js";
import { runToolCalls, type RefusedCall, type ToolRunEnvironment } from "./tool-runner.js";
import type { ToolSet } from "./tool-set.js";
import { CONTINUE_AFTER_CUT, cutCallRefusal, MAX_OUTPUT_LIMIT_RECOVERIES, outputLimitStop } from "./runtime/output-limit.js";
import type { RepeatGuard } from "./runtime/repeat-guard.js";

export interface LoopContext {
  emit: Emit;
  conversation: Conversation;
  provider: ChatProvider;
  retry: RetryPolicy;
  /** The tools offered now (the mode decides, and may change between turns). */
  tools(): ToolSet;
  toolEnvironment(tools: ToolSet): ToolRunEnvironment;
  nextTurnId(): string;
  /** Called as every request is sent (retries included). */
  recordRequest(model: string): void;
  /** Called after every model call with what it cost (`completed: false` for one that failed or was interrupted). */
  recordCall(call: { model: string; inputTokens: number; outputTokens: number; cacheReadTokens?: number; durationMs: number; completed?: boolean }): void;
  /** Called at turn boundaries (the log is flushed to disk there). */
  onTurnEnd(): void;
  /**
   * Before each model call: the place where steering messages and notifications that arrived while the
   * agent worked join the conversation (never between a tool request and its result). Resolves to whether a
   * user message joined (a userPromptSubmitted hook may drop one).
   */
  beforeModelCall?(signal: AbortSignal): Promise<boolean>;
  /** Input waiting to be taken (steering): the loop goes on for it even if the model was done. */
  hasPendingInput?(): boolean;
  /** Whether the agent must stop before its next model call (a subagent over its budget). */
  stopBeforeCall?(): boolean;
  /** The agent's compaction: before a request past the threshold, and once when the endpoint says "too long". */
  compaction?: Compactor;
  /**
   * "none": the prompt is answered in one call, in text (a subagent's last turn after its budget): the tools
   * stay offered because the history mentions them, and a call that comes anyway is not run.
   */
  toolChoice?: "none";
  /** Extra HTTP headers on every model request of the prompt. */
  requestHeaders?: Record<string, string>;
  /** The doom-loop guard, kept for the whole prompt (autopilot's continuations included). */
  repeats?: RepeatGuard;
}

/** Why a run ended in failure: a provider error, or one of the loop's own stops (output_limit, doom_loop). */
export interface LoopError {
  kind: string;
  message: string;
  statusCode?: number;
}

/** `rejected`: a call was refused outright (ToolOutcome.rejected), which ends the prompt's run as Copilot's does. */
export type LoopOutcome =
  | { kind: "final"; content: string }
  | { kind: "task_complete"; summary: string }
  | { kind: "error"; error: LoopError }
  | { kind: "aborted" }
  | { kind: "rejected" };

/** `cut`: the response was cut by the output limit (an answer to continue, or calls that were not run). */
type TurnOutcome = LoopOutcome | { kind: "tools"; cut: boolean } | { kind: "cut" };

/** The loop stops on its own account: session.error says why, like a provider error. */
function stopWith(ctx: LoopContext, error: { kind: string; message: string }): LoopOutcome {
  ctx.emit("session.error", { errorType: error.kind, message: error.message });
  return { kind: "error", error };
}

/** The requests as recorded, and the ones whose arguments were refused (with the result to give the model). */
function parseToolRequests(calls: { id: string; name: string; arguments: string }[]): { requests: ToolRequest[]; refused: Map<string, RefusedCall> } {
  const refused = new Map<string, RefusedCall>();
  const requests = calls.map((call) => {
    const parsed = parseToolArguments(call.name, call.arguments);
    if (!parsed.ok) refused.set(call.id, { code: parsed.code, message: parsed.message });
    return { toolCallId: call.id, name: call.name, arguments: parsed.ok ? parsed.value : parsed.kept, type: "function" as const };
  });
  return { requests, refused };
}

async function runTurn(ctx: LoopContext, signal: AbortSignal): Promise<TurnOutcome> {
  const { emit } = ctx;
  const turnId = ctx.nextTurnId();
  const tools = ctx.tools();
  emit("assistant.turn_start", { turnId, model: ctx.provider.model });
  const endTurn = () => {
    emit("assistant.turn_end", { turnId, model: ctx.provider.model });
    ctx.onTurnEnd();
  };
  // The conversation's size as sent: the endpoint's prompt count is for this, what comes after is estimated.
  let sentSize = ctx.conversation.size;
  const request = () => {
    sentSize = ctx.conversation.size;
    return callModel({
      provider: ctx.provider,
      retry: ctx.retry,
      emit,
      turnId,
      messages: ctx.conversation.messages(),
      tools: tools.schemas(),
      ...(ctx.toolChoice ? { toolChoice: ctx.toolChoice } : {}),
      ...(ctx.requestHeaders ? { headers: ctx.requestHeaders } : {}),
      signal,
      onRequest: () => ctx.recordRequest(ctx.provider.model),
    });
  };
  let call = await request();
  // Too long for the endpoint after all (the estimate was short): compact once, then send again.
  if (call.kind === "error" && call.error.kind === "context_length" && ctx.compaction) {
    const refused = call;
    if (await ctx.compaction.afterContextLimit(signal)) {
      ctx.recordCall({ model: ctx.provider.model, inputTokens: 0, outputTokens: 0, durationMs: refused.durationMs, completed: false });
      call = await request();
    }
  }
  if (call.kind !== "response") {
    ctx.recordCall({ model: ctx.provider.model, inputTokens: 0, outputTokens: 0, durationMs: call.durationMs, completed: false });
  }

  if (call.kind === "aborted") {
    if (call.partialText !== "") emit("assistant.message", { messageId: call.messageId, content: call.partialText, interrupted: true, turnId });
    emit("abort", { reason: "user_initiated" });
    endTurn();
    return { kind: "aborted" };
  }
  if (call.kind === "error") {
    const { error } = call;
    emit("session.error", {
      errorType: error.kind,
      message: call.reason ? `${error.message} (${call.reason})` : error.message,
      ...(error.statusCode !== undefined ? { statusCode: error.statusCode } : {}),
      ...(error.details.requestId ? { providerCallId: error.details.requestId } : {}),
    });
    endTurn();
    return { kind: "error", error };
  }

  const { response } = call;
  if (response.reasoning !== "") emit("assistant.reasoning", { reasoningId: call.reasoningId, content: response.reasoning });
  const { requests: toolRequests, refused } = parseToolRequests(response.toolCalls);
  emit("assistant.message", {
    messageId: call.messageId,
    content: response.content,
    ...(toolRequests.length > 0 ? { toolRequests } : {}),
    ...(response.reasoning !== "" ? { reasoningText: response.reasoning } : {}),
    ...(response.encryptedContent ? { encryptedContent: response.encryptedContent } : {}),
    ...(response.reasoningOpaque ? { reasoningOpaque: response.reasoningOpaque } : {}),
    model: response.model,
    ...(response.usage ? { outputTokens: response.usage.outputTokens } : {}),
    // Each wire's own word for a cut becomes "length", the one faces know.
    ...(response.truncated ? { finishReason: "length" } : response.finishReason ? { finishReason: response.finishReason } : {}),
    turnId,
  });
  ctx.compaction?.observeUsage(response.usage, sentSize);
  const inputTokens = response.usage?.inputTokens ?? ctx.conversation.estimateTokens();
  const outputTokens = response.usage?.outputTokens ?? Math.ceil(response.content.length / 4);
  emit("assistant.usage", {
    model: response.model,
    inputTokens,
    outputTokens,
    ...(response.usage?.cacheReadTokens !== undefined ? { cacheReadTokens: response.usage.cacheReadTokens } : {}),
    ...(response.usage?.reasoningTokens !== undefined ? { reasoningTokens: response.usage.reasoningTokens } : {}),
    duration: call.durationMs,
    ...(response.timeToFirstTokenMs !== undefined ? { timeToFirstTokenMs: response.timeToFirstTokenMs } : {}),
    isByok: true,
    apiEndpoint: ctx.provider.apiEndpoint,
  });
  // Keyed by the model asked for, like the request count, even when the endpoint names a dated variant.
  ctx.recordCall({ model: ctx.provider.model, inputTokens, outputTokens, cacheReadTokens: response.usage?.cacheReadTokens ?? 0, durationMs: call.durationMs });
  emit("session.usage_info", {
    tokenLimit: ctx.provider.limits.maxPromptTokens,
    // An endpoint that reports no input tokens reported nothing: the context is not empty, so it is estimated.
    currentTokens: (inputTokens > 0 ? inputTokens : ctx.conversation.estimateTokens()) + outputTokens,
    messagesLength: ctx.conversation.length,
  });

  if (toolRequests.length === 0) {
    endTurn();
    return response.truncated ? { kind: "cut" } : { kind: "final", content: response.content };
  }
  const environment = ctx.toolEnvironment(tools);
  // Calls that must not run at all: those of a cut response, or any in a turn that was to be answered in text.
  const notRun: RefusedCall | undefined = response.truncated
    ? cutCallRefusal(ctx.provider.limits.maxOutputTokens)
    : ctx.toolChoice === "none"
      ? { code: "no_tools", message: "Not run: no tools are available in this turn. Answer in text." }
      : undefined;
  if (notRun) for (const request of toolRequests) refused.set(request.toolCallId, notRun);
  const repeated = notRun ? undefined : await ctx.repeats?.judge(toolRequests, refused, environment, signal);
  const batch = await runToolCalls(toolRequests, environment, signal, turnId, refused);
  if (signal.aborted) {
    emit("abort", { reason: "user_initiated" });
    endTurn();
    return { kind: "aborted" };
  }
  if (repeated) {
    const stopped = stopWith(ctx, repeated);
    endTurn();
    return stopped;
  }
  if (batch.finish) emit("session.task_complete", { summary: batch.finish.summary, success: true });
  endTurn();
  if (batch.finish) return { kind: "task_complete", summary: batch.finish.summary };
  if (batch.rejected) return { kind: "rejected" };
  if (ctx.toolChoice === "none" && !response.truncated) return { kind: "final", content: response.content };
  return { kind: "tools", cut: response.truncated };
}

/** Turns until a response asks for no tools, task_complete is called, an error stops it, or an interrupt. */
export async function runToolLoop(ctx: LoopContext, signal: AbortSignal): Promise<LoopOutcome> {
  // Set when input that arrived during a final answer was already delivered for the next call.
  let delivered = false;
  // Responses cut by the output limit in a row.
  let cuts = 0;
  for (;;) {
    if (!delivered) await ctx.beforeModelCall?.(signal);
    delivered = false;
    // Checked before the turn starts, so every turn_start in the log is a model call made.
    if (ctx.stopBeforeCall?.()) return { kind: "aborted" };
    await ctx.compaction?.beforeRequest(signal);
    const outcome = await runTurn(ctx, signal);
    const cut = outcome.kind === "cut" || (outcome.kind === "tools" && outcome.cut);
    cuts = cut ? cuts + 1 : 0;
    if (cuts > MAX_OUTPUT_LIMIT_RECOVERIES) return stopWith(ctx, outputLimitStop(cuts, ctx.provider.limits.maxOutputTokens));
    // A cut answer goes on where it stopped; cut calls were answered with results saying they did not run.
    if (outcome.kind === "cut") ctx.emit("system.notification", { kind: "output_limit", content: CONTINUE_AFTER_CUT });
    if (outcome.kind === "tools" || outcome.kind === "cut") continue;
    // Steering that arrived during the last turn: the loop goes on for it, unless a hook dropped all of it.
    if (outcome.kind === "final" && ctx.hasPendingInput?.() && (await ctx.beforeModelCall?.(signal))) {
      delivered = true;
      continue;
    }
    return outcome;
  }
}

/**
 * One agent's compaction: it knows how full the agent's context is (token-accounting.ts), compacts it
 * when a request would pass the threshold, when the endpoint says the context is too long, or when asked
 * (/compact). A compaction is one model call: the system prompt, the history and a request for a
 * structured summary (prompts/compaction.md), with tool_choice "none". Its result is an event,
 * session.compaction_complete, which the conversation folds (live and on resume) by replacing the oldest
 * messages with the summary; the log keeps every message. A failed compaction emits success:false and
 * changes nothing. Every agent (main or subagent) has its own, in its AgentRuntime.
 */
import type { WindowContents } from "./context-attribution.js";
import type { CompactResult } from "../../protocol/commands.js";
import type { EventData } from "../../protocol/events/index.js";
import type { RetryPolicy } from "../../provider/retry.js";
import type { ChatProvider, TokenUsage } from "../../provider/types.js";
import { promptTemplate } from "../../config/prompt-templates.js";
import type { Conversation } from "../conversation.js";
import type { Emit } from "../event-sink.js";
import { callModel } from "../model-call.js";
import type { ToolSet } from "../tool-set.js";
import { writeCheckpoint } from "./checkpoints.js";
import { checkpointTitle, fitForSummary, messagesToReplace, summaryBudgetChars, summaryMessage, TAIL_SHARE } from "./compaction-plan.js";
import { contextBreakdown, messageChars, TokenGauge, tokensForChars, toolSchemaChars, type ContextBreakdown } from "./token-accounting.js";

export type CompactionTrigger = "threshold" | "context_limit_retry" | "manual";

export interface CompactionSettings {
  /** Share of the prompt limit at which a request is preceded by a compaction (0 < t ≤ 1). */
  threshold: number;
  /** Automatic compaction (threshold and context-length retry); /compact works either way. */
  auto: boolean;
}

export const DEFAULT_COMPACTION: CompactionSettings = { threshold: 0.8, auto: true };

/** What a compactor needs of its agent and session. */
export interface CompactorDeps {
  emit: Emit;
  conversation: Conversation;
  provider(): ChatProvider;
  retry: RetryPolicy;
  tools(): ToolSet;
  sessionDir: string;
  settings: CompactionSettings;
  /** The preCompact hook (the session's hooks, as this agent). */
  preCompact?(trigger: "manual" | "auto", focus: string | undefined): Promise<void>;
  recordRequest(model: string): void;
  recordCall(call: { model: string; inputTokens: number; outputTokens: number; cacheReadTokens?: number; durationMs: number; completed?: boolean }): void;
  /** The agent whose conversation it is (named in its checkpoints). */
  agentId?: string;
}

/** Automatic compactions that may fail (or not help) in a row before the agent stops trying, until /compact succeeds. */
const MAX_AUTO_FAILURES = 2;

/**
 * /compact summarises only when there is enough new to summarise since the last compaction (or the start):
 * four messages (a request, a tool call, its result and the answer; or two exchanges), or fewer that are
 * long (2,000 tokens). Below that (a greeting, /compact twice in a row) a structured summary is about as
 * long as what it replaces: it says so and makes no model call.
 */
const MANUAL_MINIMUM = { messages: 4, tokens: 2_000 } as const;

/** Why a /compact would not be worth its model call, or undefined when it is. */
function tooLittleToGain(fresh: { messages: number; chars: number }, total: number): string | undefined {
  if (fresh.messages >= MANUAL_MINIMUM.messages || tokensForChars(fresh.chars) >= MANUAL_MINIMUM.tokens) return undefined;
  const since = fresh.messages < total ? "since the last compaction" : "so far";
  const what =
    fresh.messages === 0
      ? "nothing was added"
      : `only ${fresh.messages} message${fresh.messages === 1 ? "" : "s"} (about ${tokensForChars(fresh.chars)} tokens)`;
  return `Too little to gain: ${what} ${since}; /compact summarises from ${MANUAL_MINIMUM.messages} messages or ${MANUAL_MINIMUM.tokens.toLocaleString("en-US")} tokens on.`;
}

export class Compactor {
  private readonly gauge = new TokenGauge();
  private running = false;
  private autoFailures = 0;

  constructor(private readonly deps: CompactorDeps) {}

  /** A response arrived: anchor the count on its prompt tokens, for the conversation as it was sent (`charsSent`). */
  observeUsage(usage: TokenUsage | undefined, charsSent: number): void {
    if (usage && usage.inputTokens > 0) this.gauge.observe(usage.inputTokens, charsSent);
  }

  private toolChars(): { all: number; schemas: ReturnType<ToolSet["schemas"]> } {
    const schemas = this.deps.tools().schemas();
    return { all: toolSchemaChars(schemas), schemas };
  }

  /** The tokens the next request would carry, as far as is known. */
  currentTokens(): number {
    return this.gauge.current(this.deps.conversation.size, this.toolChars().all);
  }

  get tokenLimit(): number {
    return this.deps.provider().limits.maxPromptTokens;
  }

  /** Learns an unset prompt limit from the endpoint's listing (once; later calls cost nothing). */
  async probeLimits(signal?: AbortSignal): Promise<void> {
    await this.deps.provider().probeLimits?.(signal);
  }

  /** /context's numbers: no model call, only what is in memory. */
  breakdown(isMcpTool: (name: string) => boolean): ContextBreakdown {
    const { conversation, settings } = this.deps;
    const { all, schemas } = this.toolChars();
    return contextBreakdown({
      model: this.deps.provider().model,
      tokenLimit: this.tokenLimit,
      currentTokens: this.gauge.current(conversation.size, all),
      systemChars: conversation.systemPrompt?.length ?? 0,
      toolChars: all,
      mcpToolChars: toolSchemaChars(schemas.filter((schema) => isMcpTool(schema.name))),
      messagesChars: conversation.messagesChars,
      messagesLength: conversation.history().length,
      ...(settings.auto ? { compactAt: Math.floor(settings.threshold * this.tokenLimit) } : {}),
    });
  }

  /** What the window holds now, for the SDK's context attribution: the breakdown, the tool schemas and the messages. */
  contents(isMcpTool: (name: string) => boolean): WindowContents {
    return { breakdown: this.breakdown(isMcpTool), schemas: this.deps.tools().schemas(), messages: this.deps.conversation.history() };
  }

  /** Before a model request: compacts when the context has passed the threshold. */
  async beforeRequest(signal: AbortSignal): Promise<void> {
    const { settings } = this.deps;
    // An unset limit may be learnt from the endpoint's listing: asked for once, in the background, so the
    // first request does not wait for it; a "too long" answer waits for it (afterContextLimit). Asked once
    // this request has left (setImmediate), so building the listing's request does not hold it back.
    setImmediate(() => void this.deps.provider().probeLimits?.());
    if (!settings.auto || this.running || this.autoFailures >= MAX_AUTO_FAILURES) return;
    if (this.currentTokens() < settings.threshold * this.tokenLimit) return;
    await this.compact("threshold", signal);
  }

  /** The endpoint refused the request as too long: compacts once; true when the request may be retried. */
  async afterContextLimit(signal: AbortSignal): Promise<boolean> {
    if (!this.deps.settings.auto || this.running) return false;
    await this.deps.provider().probeLimits?.(signal);
    return (await this.compact("context_limit_retry", signal)).success;
  }

  async compact(trigger: CompactionTrigger, signal: AbortSignal, focus?: string): Promise<CompactResult> {
    if (this.running) return { success: false, error: "A compaction is already running." };
    const history = this.deps.conversation.history();
    const fresh = this.deps.conversation.sinceCompaction();
    const tooLittle = trigger === "manual" && history.length > 0 ? tooLittleToGain(fresh, history.length) : undefined;
    if (tooLittle) return { success: false, error: tooLittle };
    if (history.length < 2) return { success: false, error: "There is nothing to compact yet." };
    this.running = true;
    try {
      const result = await this.run(trigger, signal, history, focus?.trim() || undefined);
      if (trigger === "manual") {
        if (result.success) this.autoFailures = 0;
      } else {
        // A compaction that leaves the context past the threshold (a huge system prompt or last message) did
        // not help: counted like a failure, so requests are not each preceded by another one.
        const helped = result.success && (result.postCompactionTokens ?? 0) < this.deps.settings.threshold * this.tokenLimit;
        this.autoFailures = helped ? 0 : this.autoFailures + 1;
        if (this.autoFailures === MAX_AUTO_FAILURES) {
          this.deps.emit("session.warning", {
            warningType: "compaction",
            message: `Automatic compaction is paused: the last ${MAX_AUTO_FAILURES} did not bring the context under ${Math.round(this.deps.settings.threshold * 100)}% of the limit. /compact tries again.`,
          });
        }
      }
      return result;
    } finally {
      this.running = false;
    }
  }

  private async run(trigger: CompactionTrigger, signal: AbortSignal, history: ReturnType<Conversation["history"]>, focus: string | undefined) {
    const { deps } = this;
    const { conversation, emit } = deps;
    const provider = deps.provider();
    const limit = provider.limits.maxPromptTokens;
    const system = conversation.systemPrompt;
    const tools = this.toolChars();
    const before = this.currentTokens();
    const systemTokens = tokensForChars(system?.length ?? 0);
    const toolDefinitionsTokens = tokensForChars(tools.all);
    await deps.preCompact?.(trigger === "manual" ? "manual" : "auto", focus);
    emit("session.compaction_start", {
      trigger,
      model: provider.model,
      currentTokens: before,
      tokenLimit: limit,
      systemTokens,
      conversationTokens: tokensForChars(conversation.messagesChars),
      toolDefinitionsTokens,
    });
    const common = {
      trigger,
      tokenLimit: limit,
      preCompactionTokens: before,
      preCompactionMessagesLength: conversation.length,
      ...(focus ? { customInstructions: focus } : {}),
    };
    const fail = (error: string): CompactResult => {
      emit("session.compaction_complete", { success: false, error, ...common });
      return { success: false, error, preCompactionTokens: before, ...(signal.aborted ? { interrupted: true } : {}) };
    };

    // Asked for, a compaction summarises everything so far (the last tool exchange too); on its own, mid-task,
    // it keeps the newest messages verbatim so the model still sees its last call and what came of it.
    const removed = trigger === "manual" ? history.length : messagesToReplace(history, Math.floor(limit * TAIL_SHARE));
    let instructions: string;
    try {
      instructions = promptTemplate("compaction", { focus: focus ? `\nGive special attention to: ${focus}` : "" });
    } catch (error) {
      return fail(`The compaction prompt could not be read: ${(error as Error).message}`);
    }
    const fitted = fitForSummary(history, summaryBudgetChars(limit, systemTokens + toolDefinitionsTokens + tokensForChars(instructions.length)));
    const call = await callModel({
      provider,
      retry: deps.retry,
      // The summary is not part of the conversation: nothing of the call is streamed to the faces.
      emit: () => undefined,
      turnId: "compaction",
      messages: [...(system !== undefined ? [{ role: "system" as const, content: system }] : []), ...fitted, { role: "user", content: instructions }],
      tools: tools.schemas,
      toolChoice: "none",
      signal,
      onRequest: () => deps.recordRequest(provider.model),
    });
    if (call.kind !== "response") {
      deps.recordCall({ model: provider.model, inputTokens: 0, outputTokens: 0, durationMs: call.durationMs, completed: false });
      return fail(call.kind === "aborted" ? "The compaction was interrupted." : `The summary request failed: ${call.error.message}`);
    }
    const { response } = call;
    const usage = response.usage;
    deps.recordCall({
      model: provider.model,
      inputTokens: usage?.inputTokens ?? 0,
      outputTokens: usage?.outputTokens ?? 0,
      cacheReadTokens: usage?.cacheReadTokens ?? 0,
      durationMs: call.durationMs,
    });
    const summary = response.content.trim();
    if (summary === "") return fail("The model answered with an empty summary.");
    if (signal.aborted) return fail("The compaction was interrupted.");

    const title = checkpointTitle(summary);
    let checkpoint: { number: number; path: string };
    try {
      checkpoint = writeCheckpoint(deps.sessionDir, { title, summary, ...(deps.agentId ? { agentId: deps.agentId } : {}) });
    } catch (error) {
      return fail(`The checkpoint could not be written: ${(error as Error).message}`);
    }
    // Counted in the same frame as `before` (the endpoint's count when there is one): less what goes, plus the summary.
    const removedChars = history.slice(0, removed).reduce((sum, message) => sum + messageChars(message), 0);
    const after = Math.max(0, before - tokensForChars(removedChars) + tokensForChars(summaryMessage(summary).length));
    const complete: EventData<"session.compaction_complete"> = {
      success: true,
      ...common,
      postCompactionTokens: after,
      messagesRemoved: removed,
      tokensRemoved: Math.max(0, before - after),
      summaryContent: summary,
      checkpointNumber: checkpoint.number,
      checkpointPath: checkpoint.path,
      compactionTokensUsed: { inputTokens: usage?.inputTokens ?? 0, outputTokens: usage?.outputTokens ?? 0, duration: call.durationMs, model: response.model },
    };
    emit("session.compaction_complete", complete);
    this.gauge.rebase(after, conversation.size);
    // The footers' count drops now, not at the next answer.
    emit("session.usage_info", { tokenLimit: limit, currentTokens: this.currentTokens(), messagesLength: conversation.length });
    return {
      success: true,
      preCompactionTokens: before,
      postCompactionTokens: after,
      messagesRemoved: removed,
      checkpointNumber: checkpoint.number,
      checkpointPath: checkpoint.path,
      title,
    };
  }
}

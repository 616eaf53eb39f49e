/**
 * A subagent: a child runtime of the same engine. It has its own conversation and system prompt; its events
 * go into the session's one sink (one log, one parentId chain) with its agentId on the envelope and the
 * starting tool call on the data; it uses the session's provider factory, permission gate and interaction
 * broker; the parent's abort stops it. A child can take several prompts (a multi-turn background agent);
 * each `run` is one prompt through the shared loop.
 */
import { randomUUID } from "node:crypto";
import type { RunResult } from "../protocol/commands.js";
import type { RetryPolicy } from "../provider/retry.js";
import type { ChatProvider } from "../provider/types.js";
import { Conversation } from "./conversation.js";
import type { Emit, EventSink } from "./event-sink.js";
import type { ModePreset } from "./modes.js";
import type { SessionHooks } from "./session-hooks.js";
import { AgentRuntime, type AgentRuntimeOptions } from "./runtime/agent-runtime.js";
import type { ToolRunEnvironment } from "./tool-runner.js";
import type { ToolSet } from "./tool-set.js";

export interface ChildAgentSpec {
  /** Unique in the session; on every event of the agent's envelope. */
  agentId: string;
  /** The parent's tool call that runs this agent. */
  parentToolCallId: string;
  systemPrompt: string;
  /** The first prompt (runChild runs it; a handle from startChild waits for `run`). */
  prompt: string;
  /** The tools it may call, a subset of the session's; all of them when absent. */
  toolNames?: readonly string[];
  /** Another model than the session's. */
  model?: string;
  /** Model calls allowed per prompt before the agent is stopped (a runaway guard). */
  maxTurns?: number;
  /** The agent's name for hooks (subagentStart/Stop matchers, agentName on its tool calls); its agentId when absent. */
  agentName?: string;
  agentDisplayName?: string;
  agentDescription?: string;
}

export interface ChildAgentDeps {
  sink: EventSink;
  provider: ChatProvider;
  retry: RetryPolicy;
  /** The tools an agent may have, given its emit (its own task tool emits as it). */
  tools(emit: Emit): ToolSet;
  /** What the agent's tool calls run with (the session's gate and broker, as this agent). */
  toolEnvironment(tools: ToolSet, emit: Emit): ToolRunEnvironment;
  nextTurnId(): string;
  recordRequest(model: string): void;
  recordCall(call: { model: string; inputTokens: number; outputTokens: number; durationMs: number }): void;
  onTurnEnd(): void;
  /** The session's hooks: subagentStart before the prompt, subagentStop when it ends. */
  hooks?: SessionHooks;
  /** The agent compacts its own conversation as the main agent does (given its emit). */
  compaction?(emit: Emit, agentId: string): NonNullable<AgentRuntimeOptions["compaction"]>;
}

/** A subagent answers and stops: no autopilot continuation, no mode of its own. */
const childPreset: ModePreset = {
  mode: "interactive",
  label: "Subagent",
  extraTools: [],
  announcesStops: false,
  promptNotice: "",
  switchNotice: "",
  onLoopEnd: () => ({ action: "stop" }),
};

/** What one agent has used so far, for its footer and its budget. */
export interface ChildUsage {
  turns: number;
  toolCalls: number;
  tokens: number;
}

export class ChildAgent {
  readonly usage: ChildUsage = { turns: 0, toolCalls: 0, tokens: 0 };
  private readonly runtime: AgentRuntime;
  private readonly unfold: () => void;
  private turnsThisRun = 0;
  private budgetHit: string | undefined;
  private started = false;
  private readonly emit: Emit;
  private readonly hooks: ChildAgentDeps["hooks"];

  constructor(
    readonly spec: ChildAgentSpec,
    deps: ChildAgentDeps,
  ) {
    const scoped = deps.sink.scoped({ agentId: spec.agentId, parentToolCallId: spec.parentToolCallId });
    const conversation = new Conversation(spec.agentId);
    this.unfold = deps.sink.addInternal((event) => {
      conversation.apply(event);
      if (event.agentId !== spec.agentId) return;
      if (event.type === "tool.execution_start") this.usage.toolCalls++;
      if (event.type === "assistant.usage") this.usage.tokens += (event.data.inputTokens ?? 0) + (event.data.outputTokens ?? 0);
    });
    // The budget is checked where each model call starts: over it, the agent is stopped with a reason.
    const emit: Emit = (type, data) => {
      if (type === "assistant.turn_start") {
        this.usage.turns++;
        this.turnsThisRun++;
        if (spec.maxTurns !== undefined && this.turnsThisRun > spec.maxTurns && !this.budgetHit) {
          this.budgetHit = `it reached its turn budget (${spec.maxTurns} model calls)`;
          queueMicrotask(() => this.runtime.interrupt());
        }
      }
      return scoped(type, data);
    };
    this.emit = emit;
    this.hooks = deps.hooks;
    const agentName = spec.agentName ?? spec.agentId;
    const { hooks } = deps;
    const allowed = spec.toolNames ? new Set(spec.toolNames) : undefined;
    const all = deps.tools(emit);
    const tools = allowed ? all.filter((name) => allowed.has(name)) : all;
    this.runtime = new AgentRuntime({
      emit,
      conversation,
      provider: () => deps.provider,
      retry: deps.retry,
      tools: () => tools,
      toolEnvironment: (offered) => deps.toolEnvironment(offered, emit),
      preset: () => childPreset,
      maxContinues: 0,
      nextTurnId: deps.nextTurnId,
      recordRequest: deps.recordRequest,
      recordCall: deps.recordCall,
      onTurnEnd: deps.onTurnEnd,
      systemPrompt: () => spec.systemPrompt,
      ...(deps.compaction ? { compaction: deps.compaction(emit, spec.agentId) } : {}),
      ...(hooks?.has("subagentStop")
        ? { onStop: (active: boolean, stopSignal: AbortSignal) => hooks.subagentStop(emit, agentName, "end_turn", active, stopSignal) }
        : {}),
      userMessage: (input) => ({ content: input.prompt, messageId: randomUUID(), ...(input.source ? { source: input.source } : {}) }),
    });
  }

  get busy(): boolean {
    return this.runtime.busy;
  }

  /** Runs one prompt to its end; `signal` (the caller's) stops it. A budget hit ends it as an error. */
  async run(prompt: string, signal: AbortSignal): Promise<RunResult> {
    if (signal.aborted) return { outcome: "aborted", finalMessage: "", continuations: 0 };
    this.turnsThisRun = 0;
    this.budgetHit = undefined;
    const onAbort = () => this.runtime.interrupt();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      // subagentStart's additionalContext goes before the agent's first prompt (seed 004).
      if (!this.started) {
        this.started = true;
        const { spec } = this;
        const context = await this.hooks?.subagentStart(
          this.emit,
          {
            agentName: spec.agentName ?? spec.agentId,
            ...(spec.agentDisplayName ? { agentDisplayName: spec.agentDisplayName } : {}),
            ...(spec.agentDescription ? { agentDescription: spec.agentDescription } : {}),
          },
          signal,
        );
        if (context) prompt = `${context}\n\n${prompt}`;
      }
      const result = await this.runtime.submit({ prompt });
      if (this.budgetHit) return { ...result, outcome: "error", error: { kind: "budget", message: `The agent was stopped: ${this.budgetHit}.` } };
      return result;
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  interrupt(): void {
    this.runtime.interrupt();
  }

  /** Stops folding the agent's events (it will not run again). */
  dispose(): void {
    this.unfold();
  }
}

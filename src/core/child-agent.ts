/**
 * A subagent: a child runtime of the same engine. It has its own conversation and system prompt; its events
 * go into the session's one sink (one log, one parentId chain) with its agentId on the envelope and the
 * starting tool call on the data; it uses the session's provider factory, permission gate and interaction
 * broker; the parent's abort stops it. A child can take several prompts (a multi-turn background agent);
 * each `run` is one prompt through the shared loop. A budget that stops it mid-prompt leaves it one last
 * turn without tools to report what it found (gemini-cli's grace turn), so the parent gets something.
 */
import { randomUUID } from "../util/random-id.js";
import type { RunResult } from "../protocol/commands.js";
import type { SessionEvent } from "../protocol/events/index.js";
import type { ReasoningEffort } from "../provider/provider-config.js";
import type { ChatProvider } from "../provider/types.js";
import { AgentMcpServers } from "./agent-mcp.js";
import { createAgentRuntime } from "./agent-runtimes.js";
import { Conversation } from "./conversation.js";
import type { Emit } from "./event-sink.js";
import type { ModePreset } from "./modes.js";
import type { AgentRuntime } from "./runtime/agent-runtime.js";
import type { SessionServices } from "./session-services.js";
import { budgetReasons, type BudgetLedger } from "./tasks/budget.js";
import { ToolSet } from "./tool-set.js";
import type { AnyTool } from "../tools/define-tool.js";
import { agentListAllows } from "./agents/agent-catalog.js";

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
  /** Another reasoning effort than the configured one (a client's subagent settings). */
  reasoningEffort?: ReasoningEffort | undefined;
  /** Model calls allowed per prompt before the agent is stopped (a runaway guard). */
  maxTurns?: number;
  /** Tokens (input + output) over the agent's life. */
  maxTokens?: number;
  /** Working time over the agent's life (idle time between prompts does not count). */
  maxDurationMs?: number;
  /** What all the session's subagents have used together, against the session's budget. */
  ledger?: BudgetLedger;
  /** The agent's name for hooks (subagentStart/Stop matchers, agentName on its tool calls); its agentId when absent. */
  agentName?: string;
  agentDisplayName?: string;
  agentDescription?: string;
  /** The agent's own MCP servers (`mcp-servers` in its file): started for it, offered to it alone. */
  mcpServers?: Record<string, unknown>;
  /** The skills its agent names (`skills:`): the only ones it sees, loaded when it starts; all (none loaded) when absent. */
  skills?: readonly string[];
}

export interface ChildAgentDeps {
  /** The session's services: its sink, hooks, gate, broker, metrics and log, as every agent of it uses them. */
  services: SessionServices;
  provider: ChatProvider;
  /** The tools an agent may have, given its emit (its own task tool emits as it). */
  tools(emit: Emit): ToolSet;
  /** The agent's own MCP servers, running for it: their tools join its own; they stop when it is disposed. */
  ownServers?: { tools(): readonly AnyTool[]; ready(prompt: string): Promise<void>; close(): Promise<void> };
  /** Nobody watches the session's run (autopilot): the repeat guard stops the agent instead of asking. */
  unattended?(): boolean;
}

/**
 * A subagent of the session: the tools the session offers it (below the depth cap, its own task tool), its
 * model's provider from the session's factory, its agent file's own MCP servers started for it.
 */
export function createChildAgent(
  services: SessionServices,
  spec: ChildAgentSpec,
  session: { provider: ChatProvider; tools(emit: Emit): ToolSet; unattended(): boolean },
): ChildAgent {
  const ownServers = AgentMcpServers.start(services.agentMcp, { name: spec.agentName ?? spec.agentId, mcpServers: spec.mcpServers }, services.sink.emit);
  const { provider } = session;
  return new ChildAgent(spec, {
    services,
    provider: services.createProvider?.(spec.model ?? provider.model, { initiator: "sub-agent", reasoningEffort: spec.reasoningEffort }) ?? provider,
    tools: session.tools,
    unattended: session.unattended,
    ...(ownServers ? { ownServers } : {}),
  });
}

/** The longest a grace turn after the time budget may take (and never longer than the budget itself). */
const GRACE_TURN_TIME_MS = 60_000;

/** The last turn's prompt: the budget is spent, report instead of working on. */
export const GRACE_TURN_PROMPT =
  "You have used up your budget, so this is your last turn and no tools are available. Report now what you found so far: what you learned (with the file paths and details that matter), what you could not finish, and what should be done next.";

/** A subagent answers and stops: no autopilot continuation, no mode of its own. */
const childPreset: ModePreset = {
  mode: "interactive",
  label: "Subagent",
  extraTools: [],
  announcesStops: false,
  promptNotice: () => "",
  switchNotice: () => "",
  onLoopEnd: () => ({ action: "stop" }),
};

/** What one agent has used so far, for its footer and its budget. */
export interface ChildUsage {
  turns: number;
  toolCalls: number;
  tokens: number;
  /** Time spent working (running prompts), in ms; updated when a prompt ends. */
  workedMs: number;
}

export class ChildAgent {
  readonly usage: ChildUsage = { turns: 0, toolCalls: 0, tokens: 0, workedMs: 0 };
  private readonly runtime: AgentRuntime;
  private readonly unfold: () => void;
  private turnsThisRun = 0;
  private budgetHit: string | undefined;
  /** The grace turn's one model call is let through though the budget is spent. */
  private graceCall = false;
  /** The time budget ran out (a grace turn then gets a short time limit). */
  private timeUp = false;
  /** The one budget that is per prompt: a new prompt may run again after it. */
  private readonly turnBudgetReason: string | undefined;
  private started = false;
  private readonly emit: Emit;
  private readonly hooks: SessionServices["hooks"];
  private readonly ownServers: ChildAgentDeps["ownServers"];

  constructor(
    readonly spec: ChildAgentSpec,
    deps: ChildAgentDeps,
  ) {
    this.turnBudgetReason = spec.maxTurns !== undefined ? budgetReasons.turns(spec.maxTurns) : undefined;
    const { sink, hooks } = deps.services;
    const scoped = sink.scoped({ agentId: spec.agentId, parentToolCallId: spec.parentToolCallId });
    const conversation = new Conversation(spec.agentId);
    this.unfold = sink.addInternal((event) => {
      conversation.apply(event);
      if (event.agentId !== spec.agentId) return;
      if (event.type === "tool.execution_start") this.usage.toolCalls++;
    });
    // Use is counted as it happens; the budgets are checked before each model call (checkBudget).
    const emit: Emit = (type, data) => {
      const emitted = scoped(type, data);
      const event = emitted as SessionEvent;
      if (event.type === "assistant.turn_start") {
        this.usage.turns++;
        this.turnsThisRun++;
        spec.ledger?.addTurn();
      } else if (event.type === "assistant.usage") {
        const tokens = (event.data.inputTokens ?? 0) + (event.data.outputTokens ?? 0);
        this.usage.tokens += tokens;
        spec.ledger?.addTokens(tokens);
      }
      return emitted;
    };
    this.emit = emit;
    this.hooks = hooks;
    const agentName = spec.agentName ?? spec.agentId;
    const all = deps.tools(emit);
    const fixed = all.names.map((name) => all.get(name) as AnyTool).filter((tool) => agentListAllows(spec.toolNames, tool));
    // The agent's own servers' tools change as they start (and on list_changed): the set follows them.
    this.ownServers = deps.ownServers;
    let ownSeen: readonly AnyTool[] | undefined;
    let withOwn = new ToolSet(fixed);
    const tools = (): ToolSet => {
      const own = this.ownServers?.tools();
      if (!own || own === ownSeen) return withOwn;
      ownSeen = own;
      withOwn = new ToolSet([...fixed, ...own.filter((tool) => agentListAllows(spec.toolNames, tool))]);
      return withOwn;
    };
    this.runtime = createAgentRuntime(deps.services, {
      agentId: spec.agentId,
      agentName,
      emit,
      conversation,
      provider: () => deps.provider,
      tools,
      preset: () => childPreset,
      maxContinues: 0,
      systemPrompt: () => spec.systemPrompt,
      stopBeforeCall: () => {
        if (!this.graceCall) return this.checkBudget();
        this.graceCall = false;
        return false;
      },
      ...(deps.unattended ? { unattended: deps.unattended } : {}),
      ...(hooks?.has("subagentStop")
        ? { onStop: (active: boolean, stopSignal: AbortSignal) => hooks.subagentStop(emit, agentName, "end_turn", active, stopSignal) }
        : {}),
      userMessage: (input) => ({ content: input.prompt, messageId: randomUUID(), ...(input.source ? { source: input.source } : {}) }),
    });
  }

  get busy(): boolean {
    return this.runtime.busy;
  }

  /** Whether a budget is spent (the first reason found is kept): the agent makes no more model calls. */
  private checkBudget(): boolean {
    const { spec } = this;
    if (this.turnBudgetReason && this.turnsThisRun >= (spec.maxTurns ?? Infinity)) this.budgetHit ??= this.turnBudgetReason;
    else if (spec.maxTokens !== undefined && this.usage.tokens >= spec.maxTokens) this.budgetHit ??= budgetReasons.tokens(spec.maxTokens);
    else this.budgetHit ??= spec.ledger?.spent();
    return this.budgetHit !== undefined;
  }

  /** Stops the agent now, in the middle of what it does (its time is up). */
  private stopNow(reason: string): void {
    this.timeUp = true;
    this.budgetHit ??= reason;
    this.runtime.interrupt();
  }

  /**
   * Runs one prompt to its end; `signal` (the caller's) stops it. A budget hit ends it as an error, unless
   * the answer was already whole when the stop landed; the error's result carries the report of the grace
   * turn that follows a hit during the prompt.
   */
  async run(prompt: string, signal: AbortSignal): Promise<RunResult> {
    if (signal.aborted) return { outcome: "aborted", finalMessage: "", continuations: 0 };
    this.turnsThisRun = 0;
    // Lifetime budgets stay spent across prompts; the per-prompt turn budget starts again.
    if (this.budgetHit === this.turnBudgetReason) this.budgetHit = undefined;
    const onAbort = () => this.runtime.interrupt();
    signal.addEventListener("abort", onAbort, { once: true });
    const startedAt = Date.now();
    const { maxDurationMs } = this.spec;
    const timer =
      maxDurationMs !== undefined
        ? setTimeout(() => this.stopNow(budgetReasons.duration(maxDurationMs)), Math.max(0, maxDurationMs - this.usage.workedMs))
        : undefined;
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
        await this.ownServers?.ready(prompt);
      }
      const result = this.checkBudget() ? undefined : await this.runtime.submit({ prompt });
      if (result && (!this.budgetHit || result.outcome === "completed")) return result;
      // Hit while working on this prompt (not spent before it, not the caller's interrupt): one last turn to report.
      const report = result && !signal.aborted ? await this.graceTurn() : undefined;
      return {
        ...(report ?? result ?? { finalMessage: "", continuations: 0 }),
        outcome: "error",
        error: { kind: "budget", message: `stopped by its budget: ${this.budgetHit}` },
      };
    } finally {
      clearTimeout(timer);
      this.usage.workedMs += Date.now() - startedAt;
      signal.removeEventListener("abort", onAbort);
    }
  }

  /**
   * One model call without tools, asking for a report. After the time budget it has the shorter of a minute
   * and the budget itself: a time budget bounds how long a person waits, so the overrun stays small.
   */
  private async graceTurn(): Promise<RunResult> {
    const limit = this.timeUp ? Math.min(GRACE_TURN_TIME_MS, this.spec.maxDurationMs ?? GRACE_TURN_TIME_MS) : undefined;
    const timer = limit !== undefined ? setTimeout(() => this.runtime.interrupt(), limit) : undefined;
    this.graceCall = true;
    try {
      return await this.runtime.submit({ prompt: GRACE_TURN_PROMPT, source: "budget", withoutTools: true });
    } finally {
      clearTimeout(timer);
      this.graceCall = false;
    }
  }

  interrupt(): void {
    this.runtime.interrupt();
  }

  /** Stops folding the agent's events (it will not run again) and stops its own MCP servers. */
  dispose(): void {
    this.unfold();
    void this.ownServers?.close();
  }
}

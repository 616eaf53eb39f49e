/**
 * A subagent run to its end inside a tool call: a child runtime of the same engine. It has its own
 * conversation and system prompt; its events go into the session's one sink (one log, one parentId chain)
 * with its agentId on the envelope and the starting tool call on the data; it uses the session's provider
 * factory, permission gate and interaction broker; the parent's abort stops it.
 */
import { randomUUID } from "node:crypto";
import type { RunResult } from "../protocol/commands.js";
import type { RetryPolicy } from "../provider/retry.js";
import type { ChatProvider } from "../provider/types.js";
import { Conversation } from "./conversation.js";
import type { Emit, EventSink } from "./event-sink.js";
import type { ModePreset } from "./modes.js";
import type { SessionHooks } from "./session-hooks.js";
import { AgentRuntime } from "./runtime/agent-runtime.js";
import type { ToolRunEnvironment } from "./tool-runner.js";
import type { ToolSet } from "./tool-set.js";

export interface ChildAgentSpec {
  /** Unique in the session; on every event of the agent's envelope. */
  agentId: string;
  /** The parent's tool call that runs this agent. */
  parentToolCallId: string;
  systemPrompt: string;
  prompt: string;
  /** The tools it may call, a subset of the session's; all of them when absent. */
  toolNames?: readonly string[];
  /** Another model than the session's. */
  model?: string;
  /** The agent's name for hooks (subagentStart/Stop matchers, agentName on its tool calls); its agentId when absent. */
  agentName?: string;
  agentDisplayName?: string;
  agentDescription?: string;
}

export interface ChildAgentDeps {
  sink: EventSink;
  provider: ChatProvider;
  retry: RetryPolicy;
  tools: ToolSet;
  /** What the agent's tool calls run with (the session's gate and broker, as this agent). */
  toolEnvironment(tools: ToolSet, emit: Emit): ToolRunEnvironment;
  nextTurnId(): string;
  recordRequest(model: string): void;
  recordCall(call: { model: string; inputTokens: number; outputTokens: number; durationMs: number }): void;
  onTurnEnd(): void;
  /** The session's hooks: subagentStart before the prompt, subagentStop when it ends. */
  hooks?: SessionHooks;
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

export async function runChildAgent(spec: ChildAgentSpec, signal: AbortSignal, deps: ChildAgentDeps): Promise<RunResult> {
  if (signal.aborted) return { outcome: "aborted", finalMessage: "", continuations: 0 };
  const emit = deps.sink.scoped({ agentId: spec.agentId, parentToolCallId: spec.parentToolCallId });
  const conversation = new Conversation(spec.agentId);
  const unfold = deps.sink.addInternal((event) => conversation.apply(event));
  const agentName = spec.agentName ?? spec.agentId;
  const { hooks } = deps;
  // subagentStart's additionalContext goes before the task prompt (seed 004).
  const context = await hooks?.subagentStart(emit, {
    agentName,
    ...(spec.agentDisplayName ? { agentDisplayName: spec.agentDisplayName } : {}),
    ...(spec.agentDescription ? { agentDescription: spec.agentDescription } : {}),
  }, signal);
  const allowed = spec.toolNames ? new Set(spec.toolNames) : undefined;
  const tools = allowed ? deps.tools.filter((name) => allowed.has(name)) : deps.tools;
  const runtime = new AgentRuntime({
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
    ...(hooks?.has("subagentStop") ? { onStop: (active: boolean, stopSignal: AbortSignal) => hooks.subagentStop(emit, agentName, "end_turn", active, stopSignal) } : {}),
    userMessage: (input) => ({ content: input.prompt, messageId: randomUUID(), ...(input.source ? { source: input.source } : {}) }),
  });
  const onAbort = () => runtime.interrupt();
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    return await runtime.submit({ prompt: context ? `${context}\n\n${spec.prompt}` : spec.prompt });
  } finally {
    signal.removeEventListener("abort", onAbort);
    unfold();
  }
}

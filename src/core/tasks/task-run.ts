/**
 * How a `task` call runs its agent once it is validated: sync inside the call (and, for the main agent's
 * calls, movable to the background while it works), or in the background in the task registry.
 */
import type { RunResult } from "../../protocol/commands.js";
import type { ToolContext, ToolOutcome } from "../../tools/define-tool.js";
import type { ChildAgent, ChildAgentSpec } from "../child-agent.js";
import type { Emit } from "../event-sink.js";
import type { AgentDefinition } from "./agent-directory.js";
import type { SubagentHost } from "./subagent-host.js";
import type { TaskControl } from "./task-registry.js";

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The line under a subagent's answer: who did it and what it cost. */
export function resultFooter(agent: AgentDefinition, usage: { turns: number; toolCalls: number; tokens: number }, durationMs: number): string {
  return `— ${agent.displayName} · ${usage.turns} turn${usage.turns === 1 ? "" : "s"} · ${usage.toolCalls} tool call${usage.toolCalls === 1 ? "" : "s"} · ${usage.tokens} tokens · ${seconds(durationMs)}`;
}

export interface TaskRun {
  host: SubagentHost;
  agent: AgentDefinition;
  spec: ChildAgentSpec;
  /** The task's short description (the UI's). */
  description: string;
  model: string | undefined;
  /** The agent that calls `task` (0: the main agent). */
  depth: number;
  emit: Emit;
  /** The subagent.started data, to announce the agent again as a background one when it moves there. */
  started: { agentDescription: string; model: string; budget: Record<string, number> };
}

/**
 * A background agent's life in the registry: each answer is a turn; then it waits for a follow-up (idle)
 * until it is told to finish. `first` is its first prompt's run (already under way for a moved agent).
 */
async function drive(child: ChildAgent, control: TaskControl, first: Promise<RunResult>): Promise<void> {
  try {
    let result = await first;
    for (;;) {
      control.progress({ toolCalls: child.usage.toolCalls, tokens: child.usage.tokens });
      if (result.outcome === "aborted") return;
      // Stopped by its budget: what it reported in its last turn is its answer, read with read_agent.
      if (result.error?.kind === "budget" && result.finalMessage) control.respond(result.finalMessage);
      if (result.outcome !== "completed") throw new Error(result.error?.message ?? "the agent failed");
      control.respond(result.finalMessage);
      const prompt = await control.nextMessage();
      if (prompt === undefined) return;
      result = await child.run(prompt, control.signal);
    }
  } finally {
    child.dispose();
  }
}

function registryRecord(run: TaskRun, toolCallId: string) {
  return {
    id: run.spec.agentId,
    agentType: run.agent.name,
    displayName: run.agent.displayName,
    description: run.description,
    prompt: run.spec.prompt,
    toolCallId,
    ...(run.model ? { model: run.model } : {}),
  };
}

/** Starts the agent in the task registry (it waits there for a slot) and returns at once. */
export function startInBackground(run: TaskRun, ctx: ToolContext): ToolOutcome {
  const record = run.host.registry.start(registryRecord(run, ctx.toolCallId), (control) => {
    const child = run.host.newChild(run.spec, 1);
    return drive(child, control, child.run(run.spec.prompt, control.signal));
  });
  return {
    content: `Agent started in background with agent_id: ${record.id}. You will be notified when it answers; then read its result with read_agent. Meanwhile go on with other work.`,
  };
}

/** Tells the log the agent now runs in the background (a second subagent.started for the same call). */
function announceMove(run: TaskRun, toolCallId: string): void {
  const { agent } = run;
  run.emit("subagent.started", {
    toolCallId,
    agentName: agent.name,
    agentDisplayName: agent.displayName,
    ...run.started,
    agentType: agent.name,
    executionMode: "background",
  });
}

const movedNotice = (agentId: string) =>
  `The user moved this agent to the background; it goes on working with agent_id: ${agentId}. You will be notified when it answers; then read its result with read_agent. Meanwhile go on with other work.`;

/**
 * Runs the agent to its end inside the call. The child stops with the call (the parent's interrupt) while
 * it is attached; a main agent's sync agent can be moved to the background, and then the call returns at
 * once and the registry owns the agent (its stop, its notifications).
 */
export async function runSync(run: TaskRun, ctx: ToolContext): Promise<ToolOutcome> {
  const slot = await syncSlot(run, ctx);
  if (slot === "moved") {
    // Moved before it started: it waits for its slot in the registry like any background agent.
    announceMove(run, ctx.toolCallId);
    startInBackground(run, ctx);
    return { content: movedNotice(run.spec.agentId) };
  }
  try {
    return await runSyncInSlot(run, ctx);
  } finally {
    slot();
  }
}

/**
 * The main agent's sync agents share the concurrency cap with its background agents: several started in one
 * response take turns, and one that waits says so on its call (and can be moved to the background meanwhile).
 * Deeper agents take no slot: their ancestor holds one and waits for them, so a parent never holds the slot
 * its own child would wait for.
 */
async function syncSlot(run: TaskRun, ctx: ToolContext): Promise<(() => void) | "moved"> {
  if (run.depth > 0) return () => undefined;
  const { registry } = run.host;
  const moving = new AbortController();
  const forget = run.host.registerSync({ toolCallId: ctx.toolCallId, agentId: run.spec.agentId, detach: () => moving.abort() });
  let waited = false;
  try {
    const release = await registry.slot(AbortSignal.any([ctx.signal, moving.signal]), () => {
      waited = true;
      ctx.onProgress(`waiting for a free agent slot (${registry.maxConcurrent} running; subagents.maxConcurrency)`);
    });
    if (waited) ctx.onProgress("");
    if (!moving.signal.aborted) return release;
    release();
    return "moved";
  } finally {
    forget();
  }
}

/** The result of an agent that did not finish: why, and what it said last (a budget's grace turn: its report). */
function unfinished(agent: AgentDefinition, error: string, result: RunResult): string {
  const head = `The ${agent.displayName} agent did not finish: ${error}`;
  if (!result.finalMessage) return head;
  if (result.error?.kind === "budget")
    return `${head}\nIt was cut short and given one last turn without tools; its report of what it found:\n\n${result.finalMessage}`;
  return `${head}\nIts last words: ${result.finalMessage}`;
}

async function runSyncInSlot(run: TaskRun, ctx: ToolContext): Promise<ToolOutcome> {
  const { host, agent, spec, emit } = run;
  const startedAt = Date.now();
  const child = host.newChild(spec, run.depth + 1);
  const own = new AbortController();
  const follow = () => own.abort();
  ctx.signal.addEventListener("abort", follow, { once: true });
  // Interrupted while it waited for a slot: it ends at once, as an interrupted agent.
  if (ctx.signal.aborted) own.abort();
  const running = child.run(spec.prompt, own.signal);
  let moved = false;
  let detached: () => void = () => undefined;
  const detach = new Promise<void>((resolve) => (detached = resolve));
  const forget = run.depth === 0 ? host.registerSync({ toolCallId: ctx.toolCallId, agentId: spec.agentId, detach: () => detached() }) : () => undefined;
  try {
    const first = await Promise.race([running.then(() => "done" as const), detach.then(() => "moved" as const)]);
    if (first === "moved") {
      moved = true;
      ctx.signal.removeEventListener("abort", follow);
      announceMove(run, ctx.toolCallId);
      host.registry.start(
        registryRecord(run, ctx.toolCallId),
        (control) => {
          control.signal.addEventListener("abort", follow, { once: true });
          if (control.signal.aborted) own.abort();
          return drive(child, control, running);
        },
        { startedAt },
      );
      return { content: movedNotice(spec.agentId) };
    }
    const result = await running;
    const ended = { toolCallId: ctx.toolCallId, agentName: agent.name, agentDisplayName: agent.displayName };
    if (result.outcome === "completed") {
      emit("subagent.completed", { ...ended, totalToolCalls: child.usage.toolCalls, totalTokens: child.usage.tokens, durationMs: Date.now() - startedAt });
      return { content: `${result.finalMessage || "(the agent gave no answer)"}\n\n${resultFooter(agent, child.usage, Date.now() - startedAt)}` };
    }
    const error = result.outcome === "aborted" ? "interrupted by the user" : (result.error?.message ?? "it failed");
    emit("subagent.failed", { ...ended, error });
    return { content: unfinished(agent, error, result), success: false, errorCode: "subagent_failed" };
  } finally {
    forget();
    if (!moved) {
      ctx.signal.removeEventListener("abort", follow);
      child.dispose();
    }
  }
}

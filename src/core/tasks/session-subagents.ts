/**
 * A session's subagents: the task registry for background agents, the limits, the `task` tool of each
 * agent (the main one's and each child's, emitting as that agent) and the main agent's tools for its
 * background agents. Background agents' ends become subagent.* events and notifications to the main agent.
 * Over 300 lines: the background agents' whole life (start, move to the background, settle, restore, stop)
 * is one registry's and reads best in one place.
 */
import type { EventData } from "../../protocol/events/index.js";
import type { AnyTool } from "../../tools/define-tool.js";
import type { ChildAgent, ChildAgentSpec } from "../child-agent.js";
import type { RunResult, SubagentSettings } from "../../protocol/commands.js";
import { REASONING_EFFORTS, type ReasoningEffort } from "../../provider/provider-config.js";
import type { Emit, EventSink } from "../event-sink.js";
import type { AgentDirectory } from "./agent-directory.js";
import { createAgentTools } from "./agent-tools.js";
import { BudgetLedger } from "./budget.js";
import type { SubagentHost, SubagentLimits } from "./subagent-host.js";
import { TaskRegistry, type TaskRecord, type TaskStatus } from "./task-registry.js";
import { createTaskTool } from "./task-tool.js";
import { BACKGROUND_AGENTS_STOPPED, backgroundNotice, cancelledError, stoppingMessage } from "./background-notice.js";
import { agentIdBase } from "./agent-id.js";
import { linkTodoAgents } from "../fleet/todo-agents.js";
import type { TodoItem } from "../../protocol/todos.js";
import type { SessionDatabase } from "../../tools/sql/index.js";
import type { AgentState } from "../state/agents-state.js";

export { DEFAULT_SUBAGENT_LIMITS } from "./limits.js";

export interface SessionSubagentsDeps {
  agents(): AgentDirectory;
  limits: SubagentLimits;
  availableModels(signal: AbortSignal): Promise<string[] | undefined>;
  sessionModel(): string;
  newChild(spec: ChildAgentSpec, depth: number): ChildAgent;
  notifyMain(notification: EventData<"system.notification">): void;
  /** Whether a command allowed the model to start this hidden agent once (/subconscious run: the rem-agent); taken when asked. */
  takeAllowance?(agentName: string): boolean;
  /** The main agent's emit: background agents' ends are reported as its events. */
  emit: Emit;
  /** The session's sink, to see what reaches the main conversation. */
  sink: Pick<EventSink, "addInternal">;
}

/** How long autopilot waits for a running background agent before nudging the model on (Copilot's task wait). */
const BACKGROUND_WAIT_MS = 30 * 60_000;

const ended = new Set<TaskStatus>(["completed", "failed", "cancelled"]);

export class SessionSubagents implements SubagentHost {
  readonly registry: TaskRegistry;
  readonly ledger: BudgetLedger;
  private readonly ids = new Map<string, number>();
  private mainToolList: AnyTool[] | undefined;
  /** The main agent's sync agents running now, by their task call: each can be moved to the background. */
  private readonly syncAgents = new Map<string, { agentId: string; detach(): void }>();

  /** Notifications in the main conversation that no model call of the main agent has seen yet. */
  private unseenNotifications = 0;
  /** The wait of `settle`, which an interrupt ends. */
  private settling: AbortController | undefined;
  /** Per agent, how many of its answers a subagent.completed is on record for. */
  private readonly recordedAnswers = new Map<string, number>();
  /** A client's live settings (session.tools.updateSubagentSettings); none until it gives some. */
  private settings: SubagentSettings | null = null;

  constructor(private readonly deps: SessionSubagentsDeps) {
    this.ledger = new BudgetLedger({
      ...(deps.limits.sessionMaxTurns !== undefined ? { maxTurns: deps.limits.sessionMaxTurns } : {}),
      ...(deps.limits.sessionMaxTokens !== undefined ? { maxTokens: deps.limits.sessionMaxTokens } : {}),
    });
    this.registry = new TaskRegistry({ maxConcurrent: deps.limits.maxConcurrent, onChange: (record, previous) => this.changed(record, previous) });
    deps.sink.addInternal((event) => {
      if (event.agentId) return;
      if (event.type === "system.notification") this.unseenNotifications++;
      else if (event.type === "assistant.turn_start") this.unseenNotifications = 0;
    });
  }

  /** Replaces the live settings (null clears them): agents started from now on follow them. Why not, when an effort is unknown. */
  setSettings(settings: SubagentSettings | null): string | undefined {
    for (const [name, entry] of Object.entries(settings?.agents ?? {})) {
      if (entry.reasoningEffort !== undefined && !(REASONING_EFFORTS as readonly string[]).includes(entry.reasoningEffort)) {
        return `Unknown reasoning effort "${entry.reasoningEffort}" for ${name}: the efforts are ${REASONING_EFFORTS.join(", ")}.`;
      }
    }
    this.settings = settings;
    return undefined;
  }

  agentSettings(agentName: string): { model?: string; reasoningEffort?: ReasoningEffort; disabled: boolean } {
    const entry = this.settings?.agents?.[agentName];
    return {
      ...(entry?.model ? { model: entry.model } : {}),
      ...(entry?.reasoningEffort ? { reasoningEffort: entry.reasoningEffort as ReasoningEffort } : {}),
      disabled: this.settings?.disabled?.includes(agentName) === true,
    };
  }

  /** Whether something reached the main conversation that no model call of the main agent has seen. */
  get hasUnseenNotifications(): boolean {
    return this.unseenNotifications > 0;
  }

  /** An interrupt ends a run's wait for its background agents (settle); the session's end then stops them. */
  stopSettling(): void {
    this.settling?.abort();
  }

  /**
   * In a run without a person, the prompt's end waits for the background agents: as each answers, the main
   * agent gets a turn (`mainTurn`) to use it; past the timeout they are cancelled. Returns the last turn's result.
   */
  async settle(timeoutMs: number, mainTurn: () => Promise<RunResult>): Promise<RunResult | undefined> {
    const deadline = Date.now() + timeoutMs;
    const { signal } = (this.settling = new AbortController());
    let last: RunResult | undefined;
    for (;;) {
      if (signal.aborted) break;
      if (this.unseenNotifications > 0) {
        this.unseenNotifications = 0;
        last = await mainTurn();
        continue;
      }
      if (this.registry.active().length === 0) break;
      const left = deadline - Date.now();
      const settled = left > 0 && (await this.registry.settleOne(left, signal));
      if (signal.aborted) break;
      if (!settled) {
        this.registry.cancelAll(`still running when the run's wait for background agents ended (${Math.round(timeoutMs / 1000)} s)`);
        this.deps.emit("session.warning", {
          warningType: "background_timeout",
          message: `Background agents were still running after ${Math.round(timeoutMs / 1000)} s and were cancelled.`,
        });
        break;
      }
    }
    return last;
  }

  /**
   * Autopilot's end of a turn that did not finish the task: while background agents are running, wait for one
   * of them to answer or end (true: its notification is queued for the next model call) rather than nudge
   * the model to go on. False when none is running, on an interrupt, or after `timeoutMs`.
   */
  async awaitRunning(signal: AbortSignal, timeoutMs = BACKGROUND_WAIT_MS): Promise<boolean> {
    const running = this.registry.active().filter((record) => record.status === "running");
    if (running.length === 0 || signal.aborted) return false;
    const turns = running.map((record) => record.turns.length);
    const answered = () => running.some((record, index) => record.status !== "running" || record.turns.length > (turns[index] as number));
    // One wait per agent; the first to see news ends the others, so none is left holding a timer.
    const done = new AbortController();
    const both = AbortSignal.any([signal, done.signal]);
    await Promise.race(running.map((record, index) => this.registry.waitFor(record.id, { afterTurns: turns[index] as number, timeoutMs, signal: both })));
    done.abort();
    return !signal.aborted && answered();
  }

  /** The todo list of the session's database (none without one), each todo with the agent working on it. */
  async todos(database: Pick<SessionDatabase, "todos"> | undefined): Promise<TodoItem[]> {
    return linkTodoAgents(
      (await database?.todos()) ?? [],
      this.registry.list().map((record) => record.id),
    );
  }

  get limits(): SubagentLimits {
    return this.deps.limits;
  }

  agents(): AgentDirectory {
    return this.deps.agents();
  }

  availableModels(signal: AbortSignal): Promise<string[] | undefined> {
    return this.deps.availableModels(signal);
  }

  sessionModel(): string {
    return this.deps.sessionModel();
  }

  newChild(spec: ChildAgentSpec, depth: number): ChildAgent {
    return this.deps.newChild(spec, depth);
  }

  notifyMain(notification: EventData<"system.notification">): void {
    this.deps.notifyMain(notification);
  }

  newAgentId(seed: string): string {
    const base = agentIdBase(seed);
    const count = (this.ids.get(base) ?? 0) + 1;
    this.ids.set(base, count);
    return `${base}-${count}`;
  }

  registerSync(agent: { toolCallId: string; agentId: string; detach(): void }): () => void {
    this.syncAgents.set(agent.toolCallId, agent);
    return () => this.syncAgents.delete(agent.toolCallId);
  }

  /**
   * Moves the main agent's running sync agents (or the one of this task call) to the background: their task
   * calls return at once and the registry runs them on. Returns the moved agents' ids.
   */
  moveToBackground(toolCallId?: string): string[] {
    const moving = [...this.syncAgents.entries()].filter(([id]) => toolCallId === undefined || id === toolCallId);
    for (const [id, agent] of moving) {
      this.syncAgents.delete(id);
      agent.detach();
    }
    return moving.map(([, agent]) => agent.agentId);
  }

  takeAllowance(agentName: string): boolean {
    return this.deps.takeAllowance?.(agentName) === true;
  }

  /** Whether there is any agent the model may start (no task tool without one). */
  private get anyAgent(): boolean {
    return this.deps.agents().modelInvocable().length > 0;
  }

  /** The main agent's task tool and its tools for background agents. */
  mainTools(): AnyTool[] {
    if (!this.anyAgent) return [];
    this.mainToolList ??= [createTaskTool(this, 0, this.deps.emit), ...createAgentTools(this.registry)];
    return this.mainToolList;
  }

  /** A subagent's own task tool (sync only), or none past the depth cap. */
  childTools(depth: number, emit: Emit): AnyTool[] {
    return depth < this.deps.limits.maxDepth && this.anyAgent ? [createTaskTool(this, depth, emit)] : [];
  }

  /**
   * Background agents of an earlier process, as the session's state folded them from the log: each with its
   * answers, so read_agent and list_agents still show them. Their ids are not given out again.
   */
  restore(agents: readonly AgentState[]): void {
    for (const agent of agents) {
      if (!agent.background || agent.id === undefined) continue;
      const { id } = agent;
      this.registry.restore({
        id,
        agentType: agent.type,
        displayName: agent.name,
        description: agent.description,
        prompt: "",
        toolCallId: agent.toolCallId,
        // One still running when that process died was told as failed (interrupted) before this.
        status: agent.status === "running" || agent.status === "idle" ? "failed" : agent.status,
        startedAt: agent.startedAt,
        endedAt: agent.endedAt ?? agent.startedAt,
        turns: [...agent.answers],
        ...(agent.answers.length > 0 ? { latestResponse: agent.answers.at(-1) as string } : {}),
        ...(agent.error !== undefined ? { error: agent.error } : {}),
        toolCalls: 0,
        tokens: 0,
      });
      const base = id.replace(/-\d+$/, "");
      const count = Number(/-(\d+)$/.exec(id)?.[1] ?? 0);
      if (count > (this.ids.get(base) ?? 0)) this.ids.set(base, count);
    }
  }

  /**
   * The session ends (/clear, /quit, exit): says which background agents it stops, and records each one's
   * end before the log closes: a running agent is cancelled, an idle one (it answered) completes.
   */
  stopAll(): void {
    const active = this.registry.active();
    if (active.length === 0) return;
    this.deps.emit("session.warning", { warningType: BACKGROUND_AGENTS_STOPPED, message: stoppingMessage(active) });
    this.registry.cancelAll("the session ended while it was running");
  }

  private changed(record: TaskRecord, previous: TaskStatus | undefined): void {
    if (previous === record.status) return;
    this.emitTasksChanged();
    const identity = { toolCallId: record.toolCallId, agentName: record.agentType, agentDisplayName: record.displayName };
    const recorded = this.recordedAnswers.get(record.id);
    const answered = record.turns.length > (recorded ?? 0);
    // An agent that answered has ended its task (subagent.completed), even if it then waits idle for a
    // follow-up; a later answer is another completion, and finishing after an answer on record adds none.
    if ((record.status === "idle" && answered) || (record.status === "completed" && (answered || recorded === undefined))) {
      this.recordedAnswers.set(record.id, record.turns.length);
      this.deps.emit("subagent.completed", {
        ...identity,
        totalToolCalls: record.toolCalls,
        totalTokens: record.tokens,
        durationMs: (record.endedAt ?? Date.now()) - record.startedAt,
      });
    } else if (record.status === "failed" || record.status === "cancelled") {
      this.deps.emit("subagent.failed", { ...identity, error: record.status === "cancelled" ? cancelledError(record) : (record.error ?? "failed") });
    }
    const notice = backgroundNotice(record);
    // An agent that ends right after answering was already announced by its answer.
    if (notice && !(record.status === "completed" && previous === "idle")) this.notifyMain({ kind: "agent_completed", content: notice });
    if (ended.has(record.status)) this.emitTasksChanged();
  }

  private emitTasksChanged(): void {
    const agents = this.registry.active().map((record) => ({ toolCallId: record.toolCallId, agentId: record.id, status: record.status as "running" | "idle" }));
    this.deps.emit("session.background_tasks_changed", { agents });
  }
}

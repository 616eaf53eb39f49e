/**
 * The agents that run in the background: their state (running, idle, completed, failed, cancelled), their
 * turns and latest response, their message queue and cancellation, and the concurrency cap (which the main
 * agent's sync agents share through `slot`). It stores and wakes; it does not reason. A waiting (idle) agent
 * gives its slot back; a message wakes it.
 */
import type { AgentTranscriptLine } from "./agent-transcripts.js";

export type TaskStatus = "running" | "idle" | "completed" | "failed" | "cancelled";

const isEnded = (status: TaskStatus): boolean => status === "completed" || status === "failed" || status === "cancelled";

export interface TaskRecord {
  id: string;
  agentType: string;
  displayName: string;
  description: string;
  prompt: string;
  model?: string;
  /** The tool call that started it. */
  toolCallId: string;
  status: TaskStatus;
  startedAt: number;
  endedAt?: number;
  /** Each answer it gave, oldest first. */
  turns: string[];
  latestResponse?: string;
  error?: string;
  /** The latest thing it said it is doing (its last tool's title). */
  intent?: string;
  toolCalls: number;
  tokens: number;
  /** Why it takes no follow-up messages (an MCP task), said to whoever sends one. */
  refusesMessages?: string;
  /** What it said and did, as short lines (for /tasks); the session fills it. */
  transcript?: readonly AgentTranscriptLine[];
}

/** What an agent's body does with the registry: answer, wait for the next message, finish. */
export interface TaskControl {
  readonly signal: AbortSignal;
  /** Records an answer (a turn) and wakes whoever waits for it. */
  respond(text: string): void;
  /** Idle until a message arrives (undefined: the agent should finish). Releases the slot meanwhile. */
  nextMessage(): Promise<string | undefined>;
  progress(update: Partial<Pick<TaskRecord, "intent" | "toolCalls" | "tokens">>): void;
}

type Body = (control: TaskControl) => Promise<void>;

interface Entry {
  record: TaskRecord;
  controller: AbortController;
  messages: string[];
  /** Wakes an agent waiting in nextMessage. */
  wake?: (message: string | undefined) => void;
  /** Wakes readers waiting for a change. */
  changed: Set<() => void>;
}

export interface TaskRegistryOptions {
  maxConcurrent: number;
  /** A record changed (started, answered, idle, finished): the session tells the UI and the model. */
  onChange?(record: TaskRecord, previous: TaskStatus | undefined): void;
}

export class TaskRegistry {
  private readonly entries = new Map<string, Entry>();
  private running = 0;
  private readonly waitingForSlot: (() => void)[] = [];

  constructor(private readonly options: TaskRegistryOptions) {}

  get maxConcurrent(): number {
    return this.options.maxConcurrent;
  }

  /**
   * Starts an agent; it waits for a slot when the cap is reached. `adopted`: an agent that already runs (a
   * sync agent moved to the background) takes a slot at once, even past the cap, since it is working already.
   */
  start(record: Omit<TaskRecord, "status" | "startedAt" | "turns" | "toolCalls" | "tokens">, body: Body, adopted?: { startedAt: number }): TaskRecord {
    const entry: Entry = {
      record: { ...record, status: "running", startedAt: adopted?.startedAt ?? Date.now(), turns: [], toolCalls: 0, tokens: 0 },
      controller: new AbortController(),
      messages: [],
      changed: new Set(),
    };
    this.entries.set(record.id, entry);
    this.notify(entry, undefined);
    void this.execute(entry, body, adopted !== undefined);
    return entry.record;
  }

  private async acquire(signal: AbortSignal): Promise<void> {
    while (this.running >= this.options.maxConcurrent && !signal.aborted) {
      await new Promise<void>((resolve) => this.waitingForSlot.push(resolve));
    }
    this.running++;
  }

  private release(): void {
    this.running--;
    this.waitingForSlot.shift()?.();
  }

  /**
   * A slot for an agent that runs outside the registry (a sync agent of the main agent), under the same cap
   * as the background agents. `onWait` is told when it has to wait. An interrupt ends the wait (the caller
   * then stops). Resolves with the function that gives the slot back.
   */
  async slot(signal: AbortSignal, onWait?: () => void): Promise<() => void> {
    if (this.running >= this.options.maxConcurrent && !signal.aborted) onWait?.();
    const wake = () => this.waitingForSlot.splice(0).forEach((resolve) => resolve());
    signal.addEventListener("abort", wake, { once: true });
    try {
      await this.acquire(signal);
    } finally {
      signal.removeEventListener("abort", wake);
    }
    let held = true;
    return () => {
      if (held) this.release();
      held = false;
    };
  }

  private async execute(entry: Entry, body: Body, adopted: boolean): Promise<void> {
    const { signal } = entry.controller;
    const onAbort = () => this.waitingForSlot.splice(0).forEach((resolve) => resolve());
    signal.addEventListener("abort", onAbort, { once: true });
    if (adopted) this.running++;
    else await this.acquire(signal);
    let holding = true;
    const control: TaskControl = {
      signal,
      respond: (text) => {
        entry.record.turns.push(text);
        entry.record.latestResponse = text;
        this.notify(entry, entry.record.status);
      },
      nextMessage: async () => {
        const queued = entry.messages.shift();
        if (queued !== undefined) return queued;
        if (signal.aborted) return undefined;
        this.setStatus(entry, "idle");
        this.release();
        holding = false;
        const message = await new Promise<string | undefined>((resolve) => (entry.wake = resolve));
        entry.wake = undefined;
        if (message === undefined) return undefined;
        await this.acquire(signal);
        holding = true;
        this.setStatus(entry, "running");
        return message;
      },
      progress: (update) => {
        Object.assign(entry.record, update);
        for (const listener of entry.changed) listener();
      },
    };
    try {
      if (!signal.aborted) await body(control);
      this.finish(entry, signal.aborted ? "cancelled" : "completed");
    } catch (error) {
      if (!isEnded(entry.record.status)) entry.record.error = (error as Error).message; // a cancelled one has its reason
      this.finish(entry, signal.aborted ? "cancelled" : "failed");
    } finally {
      if (holding) this.release();
      signal.removeEventListener("abort", onAbort);
    }
  }

  private finish(entry: Entry, status: TaskStatus): void {
    if (isEnded(entry.record.status)) return;
    entry.record.endedAt = Date.now();
    this.setStatus(entry, status);
  }

  private setStatus(entry: Entry, status: TaskStatus): void {
    const previous = entry.record.status;
    entry.record.status = status;
    this.notify(entry, previous);
  }

  private notify(entry: Entry, previous: TaskStatus | undefined): void {
    this.options.onChange?.(entry.record, previous);
    for (const listener of [...entry.changed]) listener();
  }

  /** A finished agent from an earlier process (read from the log on resume): readable, not runnable. */
  restore(record: TaskRecord): void {
    if (this.entries.has(record.id)) return;
    const controller = new AbortController();
    controller.abort();
    this.entries.set(record.id, { record, controller, messages: [], changed: new Set() });
  }

  get(id: string): TaskRecord | undefined {
    return this.entries.get(id)?.record;
  }

  list(): TaskRecord[] {
    return [...this.entries.values()].map((entry) => entry.record);
  }

  /** Agents still working or waiting for a message. */
  active(): TaskRecord[] {
    return this.list().filter((record) => record.status === "running" || record.status === "idle");
  }

  /**
   * Waits until the agent has answered past `afterTurns`, is idle or has finished, or the timeout passes;
   * returns the record as it is then.
   */
  async waitFor(id: string, options: { afterTurns?: number; timeoutMs: number; signal?: AbortSignal }): Promise<TaskRecord | undefined> {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const done = () => entry.record.status !== "running" || (options.afterTurns !== undefined && entry.record.turns.length > options.afterTurns);
    if (done()) return entry.record;
    await new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        entry.changed.delete(check);
        options.signal?.removeEventListener("abort", finish);
        resolve();
      };
      const check = () => done() && finish();
      const timer = setTimeout(finish, options.timeoutMs);
      entry.changed.add(check);
      options.signal?.addEventListener("abort", finish, { once: true });
    });
    return entry.record;
  }

  /** A follow-up for an agent: wakes it if it is idle. Returns why it cannot take one, or undefined. */
  sendMessage(id: string, message: string): string | undefined {
    const entry = this.entries.get(id);
    if (!entry) return `No agent with id ${id}.`;
    if (entry.record.refusesMessages) return entry.record.refusesMessages;
    if (entry.record.status !== "running" && entry.record.status !== "idle") return `Agent ${id} has ${entry.record.status}; start a new one instead.`;
    if (entry.wake) entry.wake(message);
    else entry.messages.push(message);
    return undefined;
  }

  /** Tells an idle agent it is done (it completes). */
  finishIdle(id: string): void {
    this.entries.get(id)?.wake?.(undefined);
  }

  /**
   * Stops an agent, telling its end at once (before its work unwinds and the session's log may close): a
   * running one is cancelled (`reason`: its error), an idle one has answered and completes.
   */
  cancel(id: string, reason?: string): boolean {
    const entry = this.entries.get(id);
    if (!entry || (entry.record.status !== "running" && entry.record.status !== "idle")) return false;
    entry.controller.abort();
    if (entry.record.status === "idle") this.finish(entry, "completed");
    else {
      if (reason !== undefined) entry.record.error = reason;
      this.finish(entry, "cancelled");
    }
    entry.wake?.(undefined);
    return true;
  }

  cancelAll(reason?: string): void {
    for (const record of this.active()) this.cancel(record.id, reason);
  }

  /**
   * Waits until one running agent answers or ends (idle ones are told to finish first), or the timeout
   * passes: false on the timeout.
   */
  async settleOne(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    for (const record of this.active()) if (record.status === "idle") this.finishIdle(record.id);
    const running = this.active().filter((record) => record.status === "running");
    if (running.length === 0) return true;
    const snapshot = running.map((record) => record.turns.length);
    const records = await Promise.race(
      running.map((record, index) => this.waitFor(record.id, { afterTurns: snapshot[index] as number, timeoutMs, ...(signal ? { signal } : {}) })),
    );
    return records !== undefined && (records.status !== "running" || running.some((record, index) => record.turns.length > (snapshot[index] as number)));
  }

  /** Waits until no agent is running (idle ones are told to finish), or the timeout passes. */
  async settle(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (const record of this.active()) if (record.status === "idle") this.finishIdle(record.id);
      const running = this.active();
      if (running.length === 0) return true;
      const left = deadline - Date.now();
      if (left <= 0 || signal?.aborted) return false;
      await Promise.race(running.map((record) => this.waitFor(record.id, { timeoutMs: left, ...(signal ? { signal } : {}) })));
    }
  }
}

/**
 * Where every event is born: wraps data in the seed-002 envelope, chains parentIds, writes persisted
 * events to the log (before anyone else sees them), then hands the event to subscribers.
 *
 * parentId: a persisted event points at the previous persisted event, so the chain on disk has no holes;
 * an ephemeral event points at the previous event of either kind. A subagent emits into the same sink
 * through a scoped emit (agentId on the envelope, parentToolCallId on the data), so one session has one
 * chain in one log whatever its agents do.
 *
 * A log that cannot be written (a full disk, a read-only home) is a failure of the session, not of the code
 * that happened to emit: the event is still told, nothing more is written, and whoever listens for the
 * failure stops the work (see open-session.ts), so the log on disk ends on the last event that reached it.
 */
import { randomUUID } from "../util/random-id.js";
import { isEphemeralEventType as isEphemeralType } from "../protocol/events/ephemeral.js";
import type { EventData, EventType, SessionEvent, SessionEventOf } from "../protocol/events/index.js";
import type { SecretFilter } from "../util/secret-filter.js";
import { isoTime } from "../util/iso-time.js";

export type EventListener = (event: SessionEvent) => void;
export type Emit = <T extends EventType>(type: T, data: EventData<T>) => SessionEventOf<T>;

export interface EventPersister {
  append(event: SessionEvent): void;
}

/** Whose event it is: the main agent's (no scope) or a subagent's. */
export interface EmitScope {
  agentId: string;
  /** The tool call (in the parent's conversation) that started the agent. */
  parentToolCallId?: string;
}

export class EventSink {
  private lastId: string | null;
  private lastPersistedId: string | null;
  private readonly listeners = new Set<EventListener>();
  /** Listeners that must see an event before any subscriber (the conversation folds). */
  private readonly internal: EventListener[] = [];

  /** How many events the log holds (those read on a resume, and those written since): a join's session.resume says. */
  persistedCount: number;

  /** What the log and the subscribers get: the event with registered secrets replaced (the folds get it whole). */
  private readonly shown: (event: SessionEvent) => SessionEvent;

  constructor(
    private readonly persister: EventPersister | undefined,
    options: { lastPersistedId?: string | null; persistedCount?: number; secrets?: SecretFilter } = {},
  ) {
    this.lastId = options.lastPersistedId ?? null;
    this.lastPersistedId = options.lastPersistedId ?? null;
    this.persistedCount = options.persistedCount ?? 0;
    const { secrets } = options;
    this.shown = secrets ? (event) => secrets.redact(event) : (event) => event;
  }

  addInternal(listener: EventListener): () => void {
    this.internal.push(listener);
    return () => {
      const index = this.internal.indexOf(listener);
      if (index >= 0) this.internal.splice(index, 1);
    };
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** After session.shutdown nothing more is written or told: late events of stopping agents are dropped. */
  private closed = false;
  private failure: Error | undefined;
  private readonly failureListeners: ((error: Error) => void)[] = [];

  /** Why the log could not be written, once it could not. */
  get logFailure(): Error | undefined {
    return this.failure;
  }

  onLogFailure(listener: (error: Error) => void): void {
    this.failureListeners.push(listener);
  }

  /** The log could not be written (an append, a flush): from now on events are only told. */
  logFailed(error: unknown): void {
    if (this.failure) return;
    this.failure = error instanceof Error ? error : new Error(String(error));
    for (const listener of this.failureListeners) listener(this.failure);
  }

  close(): void {
    this.closed = true;
  }

  readonly emit: Emit = (type, data) => this.emitScoped(undefined, type, data);

  /** An emit whose events belong to a subagent. */
  scoped(scope: EmitScope): Emit {
    return (type, data) => this.emitScoped(scope, type, data);
  }

  private emitScoped<T extends EventType>(scope: EmitScope | undefined, type: T, data: EventData<T>): SessionEventOf<T> {
    const ephemeral = isEphemeralType(type);
    const id = randomUUID();
    const scopedData = scope?.parentToolCallId !== undefined ? { ...data, parentToolCallId: scope.parentToolCallId } : data;
    const timestamp = isoTime();
    const parentId = ephemeral ? this.lastId : this.lastPersistedId;
    // Built whole in the envelope's key order, without spreads: every streamed delta is one of these.
    const event = (
      scope
        ? ephemeral
          ? { id, timestamp, parentId, ephemeral: true, agentId: scope.agentId, type, data: scopedData }
          : { id, timestamp, parentId, agentId: scope.agentId, type, data: scopedData }
        : ephemeral
          ? { id, timestamp, parentId, ephemeral: true, type, data: scopedData }
          : { id, timestamp, parentId, type, data: scopedData }
    ) as SessionEventOf<T>;
    if (this.closed) return event;
    let failed: unknown;
    if (!ephemeral && !this.failure) {
      // Written first: if the write fails, the chain must not point at an event that is not on disk.
      try {
        this.persister?.append(this.shown(event));
        this.lastPersistedId = id;
        this.persistedCount++;
      } catch (error) {
        failed = error;
      }
    }
    this.lastId = id;
    for (const listener of this.internal) listener(event);
    const shown = this.listeners.size > 0 ? this.shown(event) : event;
    for (const listener of this.listeners) {
      try {
        listener(shown);
      } catch (error) {
        // A broken subscriber must not break the engine or the other subscribers.
        process.emitWarning(`An event subscriber failed on ${type}: ${(error as Error).message}`);
      }
    }
    if (failed !== undefined) this.logFailed(failed);
    return event;
  }
}

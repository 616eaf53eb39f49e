/**
 * Where every event is born: wraps data in the seed-002 envelope, chains parentIds, writes persisted
 * events to the log (before anyone else sees them), then hands the event to subscribers.
 *
 * parentId: a persisted event points at the previous persisted event, so the chain on disk has no holes;
 * an ephemeral event points at the previous event of either kind.
 */
import { randomUUID } from "node:crypto";
import { isEphemeralEventType as isEphemeralType } from "./events/ephemeral.js";
import type { EventData, EventType, SessionEvent, SessionEventOf } from "./events/index.js";

export type EventListener = (event: SessionEvent) => void;
export type Emit = <T extends EventType>(type: T, data: EventData<T>) => SessionEventOf<T>;

export interface EventPersister {
  append(event: SessionEvent): void;
}

export class EventSink {
  private lastId: string | null;
  private lastPersistedId: string | null;
  private readonly listeners = new Set<EventListener>();
  /** Listeners that must see an event before any subscriber (the conversation fold). */
  private readonly internal: EventListener[] = [];

  constructor(
    private readonly persister: EventPersister | undefined,
    options: { lastPersistedId?: string | null; agentId?: string } = {},
  ) {
    this.lastId = options.lastPersistedId ?? null;
    this.lastPersistedId = options.lastPersistedId ?? null;
    this.agentId = options.agentId;
  }

  private readonly agentId: string | undefined;

  addInternal(listener: EventListener): void {
    this.internal.push(listener);
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  readonly emit: Emit = (type, data) => {
    const ephemeral = isEphemeralType(type);
    const id = randomUUID();
    const event = {
      id,
      timestamp: new Date().toISOString(),
      parentId: ephemeral ? this.lastId : this.lastPersistedId,
      ...(ephemeral ? { ephemeral: true as const } : {}),
      ...(this.agentId ? { agentId: this.agentId } : {}),
      type,
      data,
    } as SessionEventOf<typeof type>;
    this.lastId = id;
    if (!ephemeral) {
      this.lastPersistedId = id;
      this.persister?.append(event);
    }
    for (const listener of this.internal) listener(event);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        // A broken subscriber must not break the engine or the other subscribers.
        process.emitWarning(`An event subscriber failed on ${type}: ${(error as Error).message}`);
      }
    }
    return event;
  };
}

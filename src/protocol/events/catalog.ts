import type { z } from "zod";
import { assistantEvents } from "./assistant-events.js";
import { conversationEvents } from "./conversation-events.js";
import { hookEvents } from "./hook-events.js";
import { interactionEvents } from "./interaction-events.js";
import { sessionEvents } from "./session-events.js";
import { toolEvents } from "./tool-events.js";

/**
 * Every event type the engine emits, with its data schema and ephemeral flag (seed 002, plus the few
 * session events the reference catalog names: start, resume, mode_changed, model_change, info, warning,
 * autopilot_stopped, shutdown).
 */
export const eventCatalog = {
  ...assistantEvents,
  ...toolEvents,
  ...sessionEvents,
  ...interactionEvents,
  ...conversationEvents,
  ...hookEvents,
} as const;

export type EventCatalog = typeof eventCatalog;
export type EventType = keyof EventCatalog;
export type EventData<T extends EventType> = z.infer<EventCatalog[T]["schema"]>;

/** The seed-002 envelope every event carries. */
export interface EventEnvelope {
  /** UUID v4. */
  id: string;
  /** ISO 8601. */
  timestamp: string;
  /** The previous event: for a persisted event the previous persisted one, so the log on disk is a chain. */
  parentId: string | null;
  /** Present and true for events that are streamed but never written to the log. */
  ephemeral?: true;
  /** Set on events of a sub-agent's child session. */
  agentId?: string;
}

/** One event: the envelope plus a type and its data, as a discriminated union on `type`. */
export type SessionEvent = { [T in EventType]: EventEnvelope & { type: T; data: EventData<T> } }[EventType];
export type SessionEventOf<T extends EventType> = Extract<SessionEvent, { type: T }>;

export function isKnownEventType(type: string): type is EventType {
  return Object.hasOwn(eventCatalog, type);
}

export function isEphemeralType(type: EventType): boolean {
  return eventCatalog[type].ephemeral;
}

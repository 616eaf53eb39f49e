/**
 * Which of a session's events are still part of it after rewinds, folded from the log (live and on resume)
 * like every other view of a session. Points are the moments a rewind can go back to: just before each
 * user prompt of the main agent, and just before each rewind (going back there undoes it).
 *
 * Going back to a point restores the view as it was at that moment of the log: the events then visible.
 * Each point keeps that view as a prefix of an array that is only ever appended to (a rewind starts a new
 * array), so keeping every point costs two numbers, not a copy.
 */
import type { SessionEvent } from "../../protocol/events/index.js";
import type { RewindScope } from "../../protocol/rewind.js";

export interface TimelinePoint {
  eventId: string;
  kind: "prompt" | "rewind";
  text: string;
  timestamp: string;
  isAutopilotContinuation: boolean;
  /** Its place among every point ever made, hidden ones included (the order files changed in). */
  ordinal: number;
}

interface Entry<T> {
  item: T;
  point?: TimelinePoint;
}

/** The visible view at a moment: the first `length` entries of `entries`. */
interface View<T> {
  entries: Entry<T>[];
  length: number;
}

export const goesBackInConversation = (scope: RewindScope | undefined): boolean => scope !== "files";

export class RewindTimeline<T = string> {
  private entries: Entry<T>[] = [];
  private readonly views = new Map<string, View<T>>();
  private readonly points = new Map<string, TimelinePoint>();

  /** `keep`: what the view holds for an event (its id by default; the event itself to list events). */
  constructor(private readonly keep: (event: SessionEvent) => T = (event) => event.id as T) {}

  readonly apply = (event: SessionEvent): void => {
    if (event.ephemeral) return;
    const point = this.pointOf(event);
    if (point) {
      this.points.set(event.id, point);
      this.views.set(event.id, { entries: this.entries, length: this.entries.length });
    }
    if (event.type === "session.snapshot_rewind" && goesBackInConversation(event.data.scope)) {
      const target = this.views.get(event.data.upToEventId);
      if (target) this.entries = target.entries.slice(0, target.length);
    }
    this.entries.push({ item: this.keep(event), ...(point ? { point } : {}) });
  };

  private pointOf(event: SessionEvent): TimelinePoint | undefined {
    const base = { eventId: event.id, timestamp: event.timestamp, ordinal: this.points.size };
    if (event.agentId === undefined && event.type === "user.message") {
      return {
        ...base,
        kind: "prompt",
        text: event.data.typedText ?? event.data.content,
        isAutopilotContinuation: event.data.isAutopilotContinuation === true,
      };
    }
    if (event.type === "session.snapshot_rewind") {
      const target = this.points.get(event.data.upToEventId);
      const what = event.data.scope === "files" ? "files" : event.data.scope === "conversation" ? "conversation" : "conversation and files";
      const before = target ? (target.kind === "prompt" ? `“${firstLine(target.text)}”` : "an earlier rewind") : "an unknown point";
      return { ...base, kind: "rewind", text: `Rewound the ${what} to before ${before}`, isAutopilotContinuation: false };
    }
    return undefined;
  }

  /** The events (as kept) that are part of the session now. */
  visible(): T[] {
    return this.entries.map((entry) => entry.item);
  }

  /** The points that are part of the session now, oldest first. */
  visiblePoints(): TimelinePoint[] {
    const found: TimelinePoint[] = [];
    for (const entry of this.entries) if (entry.point) found.push(entry.point);
    return found;
  }

  /** Any point ever made (a hidden one too), by its event id. */
  point(eventId: string): TimelinePoint | undefined {
    return this.points.get(eventId);
  }

  /** The first point the log made (hidden or not): a session's start, for its files. */
  firstPoint(): TimelinePoint | undefined {
    return this.points.values().next().value;
  }

  /** Every point made at or after this one in the log (hidden ones included): whose file changes a rewind there undoes. */
  pointsFrom(eventId: string): TimelinePoint[] {
    const from = this.points.get(eventId)?.ordinal;
    return from === undefined ? [] : [...this.points.values()].filter((point) => point.ordinal >= from);
  }

  /** How many visible events going back to this point would hide (undefined: no such point). */
  eventsRemovedBy(eventId: string): number | undefined {
    const target = this.views.get(eventId);
    if (!target) return undefined;
    if (target.entries === this.entries) return this.entries.length - target.length;
    let common = 0;
    const limit = Math.min(target.length, this.entries.length);
    while (common < limit && target.entries[common] === this.entries[common]) common++;
    return this.entries.length - common;
  }
}

export function firstLine(text: string, max = 60): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The events of a log that are part of the session now (what a rewind hid left out), in order. */
export function visibleEvents(events: readonly SessionEvent[]): SessionEvent[] {
  if (!events.some((event) => event.type === "session.snapshot_rewind")) return [...events];
  const timeline = new RewindTimeline<SessionEvent>((event) => event);
  for (const event of events) timeline.apply(event);
  return timeline.visible();
}

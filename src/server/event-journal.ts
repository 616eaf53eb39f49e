/**
 * The events a served session has seen since this process opened it, for session.eventLog.read/tail: a
 * cursor is a position in this journal, and a read with nothing new waits up to its waitMs for the next
 * event. Streamed deltas are left out (the SDK reads them off `session.event`); the journal keeps the most
 * recent MAX_KEPT events so a long session does not grow without bound.
 */
import type { SessionEvent } from "../protocol/events/index.js";

const MAX_KEPT = 5000;
const STREAMED = new Set<string>(["assistant.message_delta", "assistant.reasoning_delta", "assistant.streaming_delta"]);

export interface JournalRead {
  events: SessionEvent[];
  cursor: string;
  cursorStatus: "ok" | "expired";
  hasMore: boolean;
}

export class EventJournal {
  private readonly events: SessionEvent[] = [];
  /** How many events were dropped from the front (a cursor is an absolute position). */
  private dropped = 0;
  private readonly waiters = new Set<() => void>();

  push(event: SessionEvent): void {
    if (STREAMED.has(event.type)) return;
    this.events.push(event);
    if (this.events.length > MAX_KEPT) {
      this.events.shift();
      this.dropped++;
    }
    for (const wake of [...this.waiters]) wake();
  }

  /** When the session last changed, as far as this process saw (an ISO time), if it saw anything. */
  lastTimestamp(): string | undefined {
    return this.events.at(-1)?.timestamp;
  }

  tail(): string {
    return String(this.dropped + this.events.length);
  }

  async read(options: { cursor?: string; max?: number; waitMs?: number; types?: readonly string[] }): Promise<JournalRead> {
    const from = options.cursor === undefined ? this.dropped : Number(options.cursor);
    if (!Number.isInteger(from) || from < 0 || from > this.dropped + this.events.length) throw new Error(`Unknown event log cursor: ${options.cursor}`);
    const expired = from < this.dropped;
    const start = Math.max(from, this.dropped);
    const found = this.collect(start, options);
    if (found.events.length > 0 || !options.waitMs || options.waitMs <= 0) return { ...found, cursorStatus: expired ? "expired" : "ok" };
    await this.nextOrTimeout(options.waitMs, () => this.collect(start, options).events.length > 0);
    return { ...this.collect(start, options), cursorStatus: expired ? "expired" : "ok" };
  }

  private collect(start: number, options: { max?: number; types?: readonly string[] }): Omit<JournalRead, "cursorStatus"> {
    const max = options.max && options.max > 0 ? options.max : 100;
    const wanted = options.types && options.types.length > 0 ? new Set(options.types) : undefined;
    const events: SessionEvent[] = [];
    let position = start;
    const end = this.dropped + this.events.length;
    while (position < end && events.length < max) {
      const event = this.events[position - this.dropped] as SessionEvent;
      position++;
      if (!wanted || wanted.has(event.type)) events.push(event);
    }
    const hasMore = position < end && (!wanted || this.events.slice(position - this.dropped).some((event) => wanted.has(event.type)));
    return { events, cursor: String(position), hasMore };
  }

  private nextOrTimeout(waitMs: number, ready: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const wake = () => {
        if (ready()) done();
      };
      const timer = setTimeout(done, Math.min(waitMs, 60_000));
      timer.unref();
      this.waiters.add(wake);
    });
  }
}

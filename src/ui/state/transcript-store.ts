/**
 * Holds the transcript outside React, so the view can be remounted (after a resize) without losing it.
 * Engine events are batched: a burst of deltas becomes one state change per frame, and with no events
 * there is no timer at all (an idle agent uses no CPU). A subagent's streamed text never changes the view, so it
 * starts no timer either.
 */
import type { SessionEvent } from "../../protocol/events/index.js";
import { changesTranscript, reduceTranscript } from "./reduce-transcript.js";
import type { TranscriptItem, TranscriptState } from "./transcript-types.js";

/** Ink paints at most this many frames a second (run-tui.tsx's maxFps). */
export const PAINTS_PER_SECOND = 30;
/**
 * Events are applied once a paint: every state change is a React render and a layout of the whole tree, and at 60
 * a second half of them were never painted (~5–10 ms each while ten agents start, before V8 has optimised Ink).
 */
const FRAME_MS = Math.floor(1000 / PAINTS_PER_SECOND);

export class TranscriptStore {
  private state: TranscriptState;
  private pending: SessionEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    initial: TranscriptState,
    private readonly clock: () => number = Date.now,
  ) {
    this.state = initial;
  }

  readonly getState = (): TranscriptState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Queues an engine event; applied with the others of the same frame. One that cannot change anything is dropped. */
  readonly push = (event: SessionEvent): void => {
    if (!changesTranscript(event)) return;
    this.pending.push(event);
    this.timer ??= setTimeout(() => this.flush(), FRAME_MS);
  };

  /** Applies queued events now. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const events = this.pending;
    this.pending = [];
    const now = this.clock();
    let next = this.state;
    for (const event of events) next = reduceTranscript(next, event, now);
    this.set(next);
  }

  /** A line of the UI's own (a slash command's answer, an error): appended after what is pending. */
  addLocal(item: TranscriptItem): void {
    this.flush();
    this.set({ ...this.state, items: [...this.state.items, item] });
  }

  update(change: (state: TranscriptState) => TranscriptState): void {
    this.flush();
    this.set(change(this.state));
  }

  private set(next: TranscriptState): void {
    if (next === this.state) return;
    this.state = next;
    for (const listener of this.listeners) listener();
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.listeners.clear();
  }
}

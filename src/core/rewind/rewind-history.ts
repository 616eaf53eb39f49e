/**
 * What a session knows for rewinding: the timeline of its points (folded from the log, live and on resume)
 * and the file snapshots its tool calls left. open-session folds the log into it before the first event.
 */
import type { CommandResults, SessionCommand } from "../../protocol/commands.js";
import type { SessionEvent } from "../../protocol/events/index.js";
import type { RewindPoint } from "../../protocol/rewind.js";
import { RewindTimeline, type TimelinePoint } from "../../session/rewind/rewind-timeline.js";
import { SnapshotStore } from "../../session/rewind/snapshot-store.js";
import { FileSnapshots } from "./file-snapshots.js";
import { isRewindCommand, SessionRewind, type RewindCommand } from "./session-rewind.js";
import type { SessionStore } from "../../session/session-store.js";
import type { Emit } from "../event-sink.js";

/** What a rewind asks of the session: is anything working. */
export interface WorkingSession {
  readonly busy: boolean;
  readonly agentRecords: readonly { status: string }[];
}

export class RewindHistory {
  readonly timeline = new RewindTimeline();
  readonly snapshots: FileSnapshots;

  /** `session`: its id and store (for forks; without a store, /fork is refused). */
  constructor(
    sessionDir: string,
    private readonly session: { id: string; store?: SessionStore } = { id: "" },
  ) {
    this.snapshots = new FileSnapshots(new SnapshotStore(sessionDir));
  }

  handles(command: SessionCommand): command is RewindCommand {
    return isRewindCommand(command);
  }

  /** The rewind and fork commands (SessionRewind holds no state: one is made per command). */
  handle<C extends RewindCommand>(command: C, emit: Emit, working: WorkingSession): CommandResults[C["type"]] {
    // Nothing goes back under work that may still change files: a turn, or a background agent running.
    const busy = () => working.busy || working.agentRecords.some((agent) => agent.status === "running");
    return new SessionRewind({ ...this.session, rewind: this, emit, busy }).handle(command);
  }

  readonly apply = (event: SessionEvent): void => {
    this.timeline.apply(event);
    this.snapshots.apply(event);
  };

  /** The points a rewind can go to now, oldest first, each with the files changed from it to the next. */
  points(): RewindPoint[] {
    return this.timeline.visiblePoints().map((point, index) => this.describe(point, index + 1));
  }

  private describe(point: TimelinePoint, number: number): RewindPoint {
    const record = this.snapshots.record(point.eventId);
    const files = Object.entries(record?.files ?? {});
    return {
      eventId: point.eventId,
      kind: point.kind,
      number,
      text: point.text,
      timestamp: point.timestamp,
      isAutopilotContinuation: point.isAutopilotContinuation,
      changedFiles: files.map(([file]) => file),
      linesAdded: files.reduce((sum, [, entry]) => sum + entry.linesAdded, 0),
      linesRemoved: files.reduce((sum, [, entry]) => sum + entry.linesRemoved, 0),
      incomplete: record?.incomplete ?? [],
    };
  }

  /** Whether a rewind can go to this event: a point that is part of the session now. */
  isVisiblePoint(eventId: string): boolean {
    return this.timeline.visiblePoints().some((point) => point.eventId === eventId);
  }
}

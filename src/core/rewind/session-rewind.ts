/**
 * The rewind and fork commands of a session: list the points, preview going back to one, go back (the
 * conversation, the files, or both), and fork the session into a new one. Each change ends in an event;
 * the facade only forwards the commands here.
 */
import type { CommandResults, SessionCommand } from "../../protocol/commands.js";
import type { RewindOutcome, RewindPreview, RewindScope, SkippedFile } from "../../protocol/rewind.js";
import { goesBackInConversation } from "../../session/rewind/rewind-timeline.js";
import type { FileRecord, PointRecord } from "../../session/rewind/snapshot-store.js";
import type { SessionStore } from "../../session/session-store.js";
import type { Emit } from "../event-sink.js";
import { forkSession } from "../session-admin/fork-session.js";
import type { RewindHistory } from "./rewind-history.js";
import { lineCounts, planFiles } from "./rewind-plan.js";

const REWIND_COMMANDS = ["rewind_points", "preview_rewind", "rewind", "fork"] as const;
export type RewindCommand = Extract<SessionCommand, { type: (typeof REWIND_COMMANDS)[number] }>;

export function isRewindCommand(command: SessionCommand): command is RewindCommand {
  return (REWIND_COMMANDS as readonly string[]).includes(command.type);
}

export interface SessionRewindOptions {
  id: string;
  /** The session's rewind history (points and file snapshots). */
  rewind: RewindHistory;
  emit: Emit;
  /** A turn or a background agent is running: nothing may go back under it. */
  busy(): boolean;
  /** Where sessions are stored (for forks); absent, /fork is refused. */
  store?: SessionStore;
}

const goesBackInFiles = (scope: RewindScope): boolean => scope !== "conversation";

export class SessionRewind {
  constructor(private readonly options: SessionRewindOptions) {}

  handle<C extends RewindCommand>(command: C): CommandResults[C["type"]];
  handle(command: RewindCommand): CommandResults[RewindCommand["type"]] {
    switch (command.type) {
      case "rewind_points":
        return this.options.rewind.points();
      case "preview_rewind":
        return this.preview(command.eventId, command.scope);
      case "rewind":
        return this.rewind(command.eventId, command.scope, command.overwrite ?? []);
      case "fork":
        return this.fork(command.toEventId, command.name);
    }
  }

  private notFound(eventId: string): string {
    return `Event ${eventId} not found among this session's rewind points (its user prompts and rewinds).`;
  }

  private async preview(eventId: string, scope: RewindScope): Promise<RewindPreview | string> {
    const { rewind: history } = this.options;
    if (!history.isVisiblePoint(eventId)) return this.notFound(eventId);
    const plan = goesBackInFiles(scope) ? planFiles(history, eventId) : { files: [], incomplete: [] };
    const files = await Promise.all(
      plan.files.map(async (file) => ({ path: file.path, change: file.change, changedSince: file.changedSince, ...(await lineCounts(history, file)) })),
    );
    const eventsRemoved = goesBackInConversation(scope) ? (history.timeline.eventsRemovedBy(eventId) ?? 0) : 0;
    return { eventId, scope, eventsRemoved, files, incomplete: plan.incomplete };
  }

  private async rewind(eventId: string, scope: RewindScope, overwrite: readonly string[] | "all"): Promise<RewindOutcome> {
    const { rewind: history, emit } = this.options;
    if (this.options.busy()) {
      return {
        ok: false,
        reason: "busy",
        error: "The agent is working: stop the turn (Esc) and any running background agent (/tasks), or let them finish, then rewind.",
      };
    }
    if (!history.isVisiblePoint(eventId)) return { ok: false, reason: "not-found", error: this.notFound(eventId) };
    const point = history.timeline.point(eventId);
    const eventsRemoved = goesBackInConversation(scope) ? (history.timeline.eventsRemovedBy(eventId) ?? 0) : 0;
    const plan = goesBackInFiles(scope) ? planFiles(history, eventId) : { files: [], incomplete: [] };
    const restoredFiles: string[] = [];
    const skippedFiles: SkippedFile[] = [];
    // This rewind is a point too: what each file held before it is kept, so going back to it undoes it.
    const undo: Record<string, FileRecord> = {};
    const store = history.snapshots.store;
    for (const file of plan.files) {
      if (file.changedSince && overwrite !== "all" && !overwrite.includes(file.path)) {
        skippedFiles.push({ path: file.path, reason: "changed-since", message: "changed since the agent's last change; kept" });
        continue;
      }
      try {
        const counts = await lineCounts(history, file);
        const before = store.save(file.path);
        store.restore(file.path, file.target);
        undo[file.path] = { before, after: file.target, ...counts };
        restoredFiles.push(file.path);
      } catch (error) {
        skippedFiles.push({ path: file.path, reason: "error", message: (error as Error).message });
      }
    }
    const event = emit("session.snapshot_rewind", {
      upToEventId: eventId,
      eventsRemoved,
      scope,
      ...(restoredFiles.length > 0 ? { restoredFiles } : {}),
      ...(skippedFiles.length > 0 ? { skippedFiles } : {}),
      ...(plan.incomplete.length > 0 ? { incomplete: plan.incomplete } : {}),
    });
    if (Object.keys(undo).length > 0) {
      const record: PointRecord = { schema: 1, eventId: event.id, files: undo };
      history.snapshots.remember(record);
    }
    return {
      ok: true,
      eventId: event.id,
      eventsRemoved,
      restoredFiles,
      skippedFiles,
      incomplete: plan.incomplete,
      ...(point?.kind === "prompt" && goesBackInConversation(scope) ? { prompt: point.text } : {}),
    };
  }

  private async fork(toEventId: string | undefined, name: string | undefined) {
    const { store, id } = this.options;
    if (!store) return { ok: false as const, error: "This session does not know where sessions are stored." };
    return forkSession(store, id, { ...(toEventId ? { toEventId } : {}), ...(name ? { name } : {}) });
  }
}

/**
 * What the rewind and fork commands exchange (see commands.ts): the points a session can go back to, a
 * preview of what going back changes, and how it went. A point is a moment just before a user prompt (or
 * before an earlier rewind, which makes that rewind undoable).
 */

/** What goes back: the conversation the model sees, the files the agent changed, or both. */
export type RewindScope = "conversation-and-files" | "conversation" | "files";

export interface RewindPoint {
  /** The user.message (or session.snapshot_rewind) event the point is just before. */
  eventId: string;
  kind: "prompt" | "rewind";
  /** Its number in the list (1: the first point still part of the session), as /rewind <number> and --fork take it. */
  number: number;
  /** The prompt as typed, or what the rewind did. */
  text: string;
  timestamp: string;
  isAutopilotContinuation: boolean;
  /** Files the agent changed from this point until the next (absolute paths). */
  changedFiles: string[];
  linesAdded: number;
  linesRemoved: number;
  /** Why going back to this point cannot restore every file (a shell command whose writes are not known). */
  incomplete: string[];
}

export interface RewindFilePreview {
  path: string;
  /** restore: back to earlier content; delete: the agent created it; recreate: the agent removed it. */
  change: "restore" | "delete" | "recreate";
  /** Changed since the agent's last write (by hand, or by something the agent could not track): kept unless overwritten. */
  changedSince: boolean;
  linesAdded: number;
  linesRemoved: number;
}

export interface RewindPreview {
  eventId: string;
  scope: RewindScope;
  /** Events of the log hidden from the conversation (kept in events.jsonl). */
  eventsRemoved: number;
  files: RewindFilePreview[];
  incomplete: string[];
}

export interface SkippedFile {
  path: string;
  /** changed-since: the file changed after the agent's last write; error: it could not be written. */
  reason: "changed-since" | "error";
  message?: string;
}

export type RewindOutcome =
  | {
      ok: true;
      /** The session.snapshot_rewind event: itself a point (rewinding to it undoes this rewind). */
      eventId: string;
      eventsRemoved: number;
      restoredFiles: string[];
      skippedFiles: SkippedFile[];
      incomplete: string[];
      /** The prompt the conversation went back before, to edit and send again. */
      prompt?: string;
    }
  | { ok: false; reason: "busy" | "not-found" | "failed"; error: string };

export type ForkOutcome = { ok: true; sessionId: string; name?: string } | { ok: false; error: string };

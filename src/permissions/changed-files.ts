/**
 * The session's record of files the agent changed, and whether a person approved each change in a dialog
 * (the latest change to a file decides). Each approved tool call's changes are persisted on its
 * tool.execution_start, so a resumed session rebuilds the same record from its log.
 */
import type { SessionEvent } from "../protocol/events/index.js";
import type { ChangedFile, FileChange } from "./agent-written-code.js";

export class ChangedFiles {
  private readonly files = new Map<string, ChangedFile>();

  record(changes: readonly FileChange[], byUser: boolean): void {
    for (const change of changes) {
      const key = `${change.anyName ? "dir" : "file"}:${change.path}`;
      this.files.delete(key); // re-inserted last: the record keeps the order changes were made in
      this.files.set(key, { ...change, byUser });
    }
  }

  list(): ChangedFile[] {
    return [...this.files.values()];
  }

  /** Rebuilds the record from a session's log. */
  restore(events: readonly SessionEvent[]): void {
    for (const event of events) {
      if (event.type === "tool.execution_start" && event.data.changedFiles) this.record(event.data.changedFiles, event.data.approvedByUser === true);
    }
  }
}

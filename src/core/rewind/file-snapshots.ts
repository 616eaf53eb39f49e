/**
 * Keeps what files looked like before the agent changed them, per user prompt, for /rewind. Every tool call
 * of any agent of the session passes here when the permission gate approved changes to files (create, edit,
 * a shell command's known destinations): before it runs, each file's state is saved once per prompt; after
 * it ends, the state it left is noted (to tell later hand edits from the agent's own). A call whose changes
 * are not all known (an opaque shell command, files under a directory) marks the prompt's point incomplete.
 */
import type { FileChange } from "../../permissions/agent-written-code.js";
import type { SessionEvent } from "../../protocol/events/index.js";
import { SnapshotStore, type PointRecord } from "../../session/rewind/snapshot-store.js";
import type { ToolOutcome } from "../../tools/define-tool.js";
import type { AroundToolCall } from "../tool-runner.js";

export class FileSnapshots {
  private point: string | undefined;

  constructor(readonly store: SnapshotStore) {}

  /** Follows the log: changes belong to the latest prompt of the main agent. */
  readonly apply = (event: SessionEvent): void => {
    if (!event.ephemeral && event.agentId === undefined && event.type === "user.message") this.point = event.id;
  };

  readonly around: AroundToolCall = async ({ changes, unknownChanges }, run) => {
    const point = this.point;
    if (changes.length === 0 && !unknownChanges) return run();
    const paths = point ? this.before(point, changes, unknownChanges) : [];
    let outcome: ToolOutcome | undefined;
    try {
      outcome = await run();
      return outcome;
    } finally {
      if (point && paths.length > 0) this.after(point, paths, outcome?.success !== false ? outcome?.codeChange : undefined);
    }
  };

  /** Saves each named file's state the first time this prompt changes it; returns the files to look at afterwards. */
  private before(point: string, changes: readonly FileChange[], unknownChanges: string | undefined): string[] {
    const known = this.store.readPoint(point);
    const update: PointRecord = { schema: 1, eventId: point, files: {} };
    const reasons = new Set<string>();
    const note = (reason: string) => {
      if (!known?.incomplete?.includes(reason)) reasons.add(reason);
    };
    if (unknownChanges) note(unknownChanges);
    const paths: string[] = [];
    for (const change of changes) {
      if (change.anyName) {
        note(`files with names not known in advance under ${change.path}`);
        continue;
      }
      paths.push(change.path);
      if (known?.files[change.path] || update.files[change.path]) continue;
      const before = this.store.save(change.path);
      if (before.kind === "unknown") note(before.reason);
      update.files[change.path] = { before, linesAdded: 0, linesRemoved: 0 };
    }
    if (reasons.size > 0) update.incomplete = [...reasons];
    if (Object.keys(update.files).length > 0 || reasons.size > 0) this.store.writePoint(update);
    return paths;
  }

  private after(point: string, paths: readonly string[], codeChange: ToolOutcome["codeChange"]): void {
    const known = this.store.readPoint(point);
    const update: PointRecord = { schema: 1, eventId: point, files: {} };
    for (const file of paths) {
      const entry = known?.files[file];
      if (!entry) continue;
      const counted = codeChange?.path === file;
      update.files[file] = {
        ...entry,
        after: this.store.read(file),
        linesAdded: entry.linesAdded + (counted ? codeChange.linesAdded : 0),
        linesRemoved: entry.linesRemoved + (counted ? codeChange.linesRemoved : 0),
      };
    }
    if (Object.keys(update.files).length > 0) this.store.writePoint(update);
  }

  /** A point's index (a rewind's too), or undefined when nothing was changed there. */
  record(eventId: string): PointRecord | undefined {
    return this.store.readPoint(eventId);
  }

  /** Records what a rewind did to files (its own point: going back there undoes it). */
  remember(record: PointRecord): void {
    this.store.writePoint(record);
  }
}

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
  private readonly records = new Map<string, PointRecord>();
  /** The records read from disk, once (a resumed session's). */
  private loaded = false;

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
    const record = this.recordOf(point);
    let dirty = false;
    const note = (reason: string) => {
      if (record.incomplete?.includes(reason)) return;
      record.incomplete = [...(record.incomplete ?? []), reason];
      dirty = true;
    };
    if (unknownChanges) note(unknownChanges);
    const paths: string[] = [];
    for (const change of changes) {
      if (change.anyName) {
        note(`files with names not known in advance under ${change.path}`);
        continue;
      }
      paths.push(change.path);
      if (record.files[change.path]) continue;
      const before = this.store.save(change.path);
      if (before.kind === "unknown") note(before.reason);
      record.files[change.path] = { before, linesAdded: 0, linesRemoved: 0 };
      dirty = true;
    }
    if (dirty) this.write(record);
    return paths;
  }

  private after(point: string, paths: readonly string[], codeChange: ToolOutcome["codeChange"]): void {
    const record = this.recordOf(point);
    for (const file of paths) {
      const entry = record.files[file];
      if (!entry) continue;
      entry.after = this.store.read(file);
      if (codeChange?.path === file) {
        entry.linesAdded += codeChange.linesAdded;
        entry.linesRemoved += codeChange.linesRemoved;
      }
    }
    this.write(record);
  }

  private recordOf(point: string): PointRecord {
    let record = this.records.get(point) ?? this.store.readPoint(point);
    if (!record) record = { schema: 1, eventId: point, files: {} };
    this.records.set(point, record);
    return record;
  }

  private write(record: PointRecord): void {
    this.store.writePoint(record);
    this.records.set(record.eventId, record);
  }

  /** A point's index (a rewind's too), or undefined when nothing was changed there. */
  record(eventId: string): PointRecord | undefined {
    if (!this.loaded) {
      this.loaded = true;
      for (const id of this.store.pointIds()) {
        const found = this.records.has(id) ? undefined : this.store.readPoint(id);
        if (found) this.records.set(id, found);
      }
    }
    return this.records.get(eventId);
  }

  /** Records what a rewind did to files (its own point: going back there undoes it). */
  remember(record: PointRecord): void {
    this.write(record);
  }
}

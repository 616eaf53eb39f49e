/**
 * Which files a rewind to a point puts back, and to what. A point is a moment of the log; a file's state
 * then is its state before the first change to it made at or after that moment (in log order, changes
 * a later rewind hid included), and what the agent last left in it is the state after its latest change.
 * A file whose content differs from that was changed since by someone else (a person, an editor, a command
 * the agent could not track): it is flagged, and only overwritten when asked.
 */
import { readFileSync } from "node:fs";
import type { RewindFilePreview } from "../../protocol/rewind.js";
import { sameState, type FileState } from "../../session/rewind/snapshot-store.js";
import type { RewindHistory } from "./rewind-history.js";

export interface PlannedFile {
  path: string;
  target: FileState;
  current: FileState;
  change: RewindFilePreview["change"];
  changedSince: boolean;
}

export interface FilePlan {
  files: PlannedFile[];
  /** Why the files cannot all be put back. */
  incomplete: string[];
}

export function planFiles(history: RewindHistory, eventId: string): FilePlan {
  const targets = new Map<string, FileState>();
  const latest = new Map<string, FileState | undefined>();
  const incomplete = new Set<string>();
  const points = history.timeline.pointsFrom(eventId).sort((a, b) => a.ordinal - b.ordinal);
  for (const point of points) {
    const record = history.snapshots.record(point.eventId);
    if (!record) continue;
    for (const reason of record.incomplete ?? []) incomplete.add(reason);
    for (const [file, entry] of Object.entries(record.files)) {
      if (!targets.has(file)) targets.set(file, entry.before);
      latest.set(file, entry.after);
    }
  }
  const files: PlannedFile[] = [];
  for (const [file, target] of targets) {
    if (target.kind === "unknown") {
      incomplete.add(target.reason);
      continue;
    }
    const current = history.snapshots.store.read(file);
    if (sameState(current, target)) continue;
    const last = latest.get(file);
    files.push({
      path: file,
      target,
      current,
      change: target.kind === "absent" ? "delete" : current.kind === "absent" ? "recreate" : "restore",
      changedSince: last !== undefined && last.kind !== "unknown" && !sameState(current, last),
    });
  }
  return { files: files.sort((a, b) => a.path.localeCompare(b.path)), incomplete: [...incomplete] };
}

/** Lines a restore adds and removes (text files up to 1 MB; others count as none). */
export async function lineCounts(history: RewindHistory, file: PlannedFile): Promise<{ linesAdded: number; linesRemoved: number }> {
  const text = (state: FileState): string | undefined => {
    if (state.kind === "absent") return "";
    if (state.kind !== "file" || state.size > 1024 * 1024) return undefined;
    try {
      return (state === file.current ? readFileSync(file.path) : history.snapshots.store.content(state.hash)).toString("utf8");
    } catch {
      return undefined;
    }
  };
  const before = text(file.current);
  const after = text(file.target);
  if (before === undefined || after === undefined) return { linesAdded: 0, linesRemoved: 0 };
  const { diffLines } = await import("diff");
  let linesAdded = 0;
  let linesRemoved = 0;
  for (const part of diffLines(before, after)) {
    if (part.added) linesAdded += part.count ?? 0;
    if (part.removed) linesRemoved += part.count ?? 0;
  }
  return { linesAdded, linesRemoved };
}

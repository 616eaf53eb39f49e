/**
 * Where a replay's tools run: a copy of the recorded session's working directory, put back as it was when
 * the session started. The files the session changed are restored from its own snapshots (the states
 * before its first changes); what it changed that no snapshot kept (an opaque command's writes, files
 * outside the directory) cannot be, and is said.
 */
import { cpSync, existsSync, mkdtempSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SessionEvent } from "../../protocol/events/index.js";
import { RewindHistory } from "../rewind/rewind-history.js";
import { planFiles } from "../rewind/rewind-plan.js";

export interface ScratchTree {
  /** The temporary folder that holds the copy (and the replay's own session store). */
  root: string;
  cwd: string;
  /** What could not be put back as it was. */
  notes: string[];
}

export function scratchTree(recordedCwd: string, recordedDir: string, events: readonly SessionEvent[]): ScratchTree {
  if (!existsSync(recordedCwd)) throw new Error(`The session's working directory ${recordedCwd} is not there to copy.`);
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "agent-replay-")));
  const cwd = path.join(root, path.basename(recordedCwd) || "work");
  cpSync(recordedCwd, cwd, { recursive: true, verbatimSymlinks: true });
  const history = new RewindHistory(recordedDir);
  for (const event of events) history.apply(event);
  const first = history.timeline.firstPoint();
  const notes: string[] = [];
  if (!first) return { root, cwd, notes };
  const plan = planFiles(history, first.eventId);
  // The snapshots name files by their physical paths; the session's directory may be named through a link.
  const roots = [...new Set([recordedCwd, realpathSync(recordedCwd)])];
  const inside = (file: string) =>
    roots.map((dir) => path.relative(dir, file)).find((relative) => relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative));
  for (const file of plan.files) {
    const relative = inside(file.path);
    if (relative === undefined) {
      notes.push(`${file.path} is outside the working directory: not part of the copy`);
      continue;
    }
    history.snapshots.store.restore(path.join(cwd, relative), file.target);
  }
  for (const reason of plan.incomplete) notes.push(`the copy may differ from the tree the session started in: ${reason}`);
  return { root, cwd, notes };
}

/**
 * The session folder's `rewind-file-snapshots/`: what files looked like before the agent changed them, so a
 * rewind can put them back. Contents are stored once by their SHA-256 (`blobs/<hash>`), whatever how many
 * prompts saw them; each user prompt has a small index of the files its tools changed, each with its state
 * before the prompt's first change and after its last. The indexes are lines of one append-only file
 * (`index.jsonl`, each line what changed in one prompt's index, merged when read): a list of thousands of
 * prompts reads one file, not thousands. Everything is private (0700 folders, 0600 files) and made only
 * when a first file is saved: a session that changes no file has no such folder. Git is never used.
 */
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  type Stats,
} from "node:fs";
import path from "node:path";
import { sha256Hex } from "../../util/digest.js";
import { makePrivateDir, replacePrivateFile, writePrivateFile } from "../../util/private-files.js";

export const SNAPSHOTS_DIR = "rewind-file-snapshots";
/** Larger files are not copied (a rewind point that needs one says it is incomplete). */
export const MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024;

/** A path's state: absent, a file (its content by hash), a symbolic link, or something not kept. */
export type FileState =
  { kind: "absent" } | { kind: "file"; hash: string; mode: number; size: number } | { kind: "link"; target: string } | { kind: "unknown"; reason: string };

export interface FileRecord {
  before: FileState;
  /** After the prompt's last change to it, when that change has ended. */
  after?: FileState;
  linesAdded: number;
  linesRemoved: number;
}

/** One user prompt's index (a line of index.jsonl holds what changed in it: its files' entries, new reasons). */
export interface PointRecord {
  schema: 1;
  eventId: string;
  files: Record<string, FileRecord>;
  /** Why this prompt's changes are not all known. */
  incomplete?: string[];
}

export function sameState(a: FileState | undefined, b: FileState | undefined): boolean {
  if (!a || !b || a.kind !== b.kind) return false;
  if (a.kind === "file" && b.kind === "file") return a.hash === b.hash;
  if (a.kind === "link" && b.kind === "link") return a.target === b.target;
  return a.kind === "absent";
}

function lstatOrUndefined(file: string): Stats | undefined {
  try {
    return lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") return undefined;
    throw error;
  }
}

export class SnapshotStore {
  readonly dir: string;
  private made = false;

  constructor(sessionDir: string) {
    this.dir = path.join(sessionDir, SNAPSHOTS_DIR);
  }

  private get blobs(): string {
    return path.join(this.dir, "blobs");
  }

  private get indexFile(): string {
    return path.join(this.dir, "index.jsonl");
  }

  /** Every prompt's index, read once (then kept current by writes). */
  private records: Map<string, PointRecord> | undefined;

  /** Copilot's marker file, written with the folder. */
  private ensure(): void {
    if (this.made) return;
    makePrivateDir(this.blobs);
    const tracking = path.join(this.dir, "tracking.json");
    if (!existsSync(tracking)) replacePrivateFile(tracking, `${JSON.stringify({ schema: 1, tracking: true })}\n`);
    this.made = true;
  }

  /** A path's state without keeping its content (to compare with what the agent left). */
  read(file: string): FileState {
    return this.state(file, false);
  }

  /** A path's state, its content kept (once per distinct content) so it can be restored. */
  save(file: string): FileState {
    return this.state(file, true);
  }

  private state(file: string, keep: boolean): FileState {
    let stats: Stats | undefined;
    try {
      stats = lstatOrUndefined(file);
    } catch (error) {
      return { kind: "unknown", reason: `${file} could not be read (${(error as NodeJS.ErrnoException).code ?? "error"})` };
    }
    if (!stats) return { kind: "absent" };
    if (stats.isSymbolicLink()) return { kind: "link", target: readlinkSync(file) };
    if (stats.isDirectory()) return { kind: "unknown", reason: `${file} is a directory` };
    if (!stats.isFile()) return { kind: "unknown", reason: `${file} is not a regular file` };
    if (stats.size > MAX_SNAPSHOT_BYTES) return { kind: "unknown", reason: `${file} is larger than ${MAX_SNAPSHOT_BYTES / 1024 / 1024} MB` };
    let content: Buffer;
    try {
      content = readFileSync(file);
    } catch (error) {
      return { kind: "unknown", reason: `${file} could not be read (${(error as NodeJS.ErrnoException).code ?? "error"})` };
    }
    const hash = sha256Hex(content);
    if (keep) {
      this.ensure();
      const blob = path.join(this.blobs, hash);
      if (!existsSync(blob)) replacePrivateFile(blob, content);
    }
    return { kind: "file", hash, mode: stats.mode & 0o7777, size: content.length };
  }

  /** A kept content, by hash. */
  content(hash: string): Buffer {
    return readFileSync(path.join(this.blobs, hash));
  }

  hasContent(hash: string): boolean {
    return existsSync(path.join(this.blobs, hash));
  }

  /**
   * Puts a path back into a state. Files are written as the workspace's own (the umask applies, the mode
   * kept is set); a directory left in the way is removed only when empty.
   */
  restore(file: string, state: FileState): void {
    if (state.kind === "unknown") throw new Error(state.reason);
    const current = lstatOrUndefined(file);
    if (current?.isDirectory()) {
      if (state.kind !== "absent") throw new Error(`${file} is a directory now`);
      rmdirSync(file);
      return;
    }
    if (state.kind === "absent") {
      if (current) unlinkSync(file);
      return;
    }
    mkdirSync(path.dirname(file), { recursive: true });
    // Never written through a link that stands there now: the link itself is replaced.
    if (current && (current.isSymbolicLink() || state.kind === "link")) unlinkSync(file);
    if (state.kind === "link") {
      symlinkSync(state.target, file);
      return;
    }
    writeFileSync(file, this.content(state.hash));
    chmodSync(file, state.mode);
  }

  private loadRecords(): Map<string, PointRecord> {
    if (this.records) return this.records;
    const records = new Map<string, PointRecord>();
    let text = "";
    try {
      text = readFileSync(this.indexFile, "utf8");
    } catch {
      // no index yet
    }
    for (const line of text.split("\n")) {
      let update: PointRecord;
      try {
        update = JSON.parse(line) as PointRecord;
      } catch {
        continue; // blank, or torn by a crash
      }
      if (update?.schema !== 1 || typeof update.eventId !== "string" || typeof update.files !== "object") continue;
      const known = records.get(update.eventId);
      records.set(update.eventId, known ? merged(known, update) : { ...update, files: { ...update.files } });
    }
    this.records = records;
    return records;
  }

  readPoint(eventId: string): PointRecord | undefined {
    return this.loadRecords().get(eventId);
  }

  /** Adds to a prompt's index: these files' entries (replacing theirs) and these reasons. */
  writePoint(update: PointRecord): void {
    this.ensure();
    const records = this.loadRecords();
    writePrivateFile(this.indexFile, `${JSON.stringify(update)}\n`, { append: true });
    const known = records.get(update.eventId);
    records.set(update.eventId, known ? merged(known, update) : { ...update, files: { ...update.files } });
  }

  /** The event ids that have an index. */
  pointIds(): string[] {
    return [...this.loadRecords().keys()];
  }

  /** Copies these points' indexes and the contents they need into another session's store (a fork). */
  copyPoints(into: SnapshotStore, eventIds: readonly string[]): void {
    for (const eventId of eventIds) {
      const record = this.readPoint(eventId);
      if (!record) continue;
      into.writePoint(record);
      for (const file of Object.values(record.files)) {
        for (const state of [file.before, file.after]) {
          if (state?.kind !== "file" || !this.hasContent(state.hash) || into.hasContent(state.hash)) continue;
          const target = path.join(into.blobs, state.hash);
          copyFileSync(path.join(this.blobs, state.hash), target);
          chmodSync(target, 0o600);
        }
      }
    }
  }
}

function merged(known: PointRecord, update: PointRecord): PointRecord {
  const incomplete = [...new Set([...(known.incomplete ?? []), ...(update.incomplete ?? [])])];
  return { ...known, files: { ...known.files, ...update.files }, ...(incomplete.length > 0 ? { incomplete } : {}) };
}

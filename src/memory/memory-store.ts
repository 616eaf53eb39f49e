/**
 * One store file (JSONL, a memory a line). Reads take the file as it is: every change is written whole
 * under a temporary name and renamed into place, so a reader sees the old file or the new one. Changes are
 * read-modify-write under a lock (`<file>.lock`, src/util/lock-file.ts): two sessions storing at once each
 * see the other's memory, and none is lost. Within one process changes queue up; across processes the lock
 * is waited for, and a lock whose holder is gone (or older than any change takes) is taken over. The folder
 * is private (0700), the files too (0600).
 */
import { chmodSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { newLockToken, tryLockFile, unlockFile, type LockRecord } from "../util/lock-file.js";
import { makePrivateDir, replacePrivateFile, writePrivateFile } from "../util/private-files.js";
import { isProcessRunning } from "../util/process-identity.js";
import { parseStoreText, recordsOf, serializeStore, type MemoryRecord, type StoreLine } from "./memory-record.js";

/** A change takes milliseconds: a lock this old was left by a holder that hangs or lost its pid to another process. */
const STALE_LOCK_MS = 30_000;
/** How long a change waits for another process's lock before giving up with an error. */
const LOCK_WAIT_MS = 10_000;
const LOCK_RETRY_MS = 15;

export class MemoryStoreError extends Error {}

export interface StoreContents {
  records: MemoryRecord[];
  /** Lines that are not memories (a person's edit gone wrong): kept in the file, reported, ignored. */
  problems: { line: number; problem: string }[];
}

/** Changes queued in this process, per file (the lock file only orders processes). */
const queues = new Map<string, Promise<unknown>>();

export class MemoryStore {
  constructor(readonly file: string) {}

  /** The store's text; a missing file is an empty store. */
  text(): string {
    try {
      return readFileSync(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
      throw new MemoryStoreError(`Cannot read the memory store ${this.file}: ${(error as Error).message}`);
    }
  }

  /** The store's lines. */
  private readLines(): StoreLine[] {
    return parseStoreText(this.text());
  }

  read(): StoreContents {
    const lines = this.readLines();
    // One pass, nothing allocated per memory: the board reads the whole store at every session's start.
    const records: MemoryRecord[] = [];
    const problems: StoreContents["problems"] = [];
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index] as StoreLine;
      if ("record" in line) records.push(line.record);
      else problems.push({ line: index + 1, problem: line.problem });
    }
    return { records, problems };
  }

  /** Creates the file, empty and private, when there is none yet (for a person to edit). */
  ensureFile(): void {
    ensurePrivateDir(path.dirname(this.file));
    try {
      writePrivateFile(this.file, "", { exclusive: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw new MemoryStoreError(`Cannot create ${this.file}: ${(error as Error).message}`);
    }
  }

  get exists(): boolean {
    try {
      return statSync(this.file).isFile();
    } catch {
      return false;
    }
  }

  /**
   * Changes the store: `change` gets the memories as they are now (read under the lock) and returns them as
   * they should be, and a result. Lines that are not memories stay where they were.
   */
  change<T>(change: (records: MemoryRecord[]) => { records: MemoryRecord[]; result: T }): Promise<T> {
    const previous = queues.get(this.file) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.locked(change));
    queues.set(this.file, next);
    void next
      .finally(() => {
        if (queues.get(this.file) === next) queues.delete(this.file);
      })
      .catch(() => undefined);
    return next;
  }

  private async locked<T>(change: (records: MemoryRecord[]) => { records: MemoryRecord[]; result: T }): Promise<T> {
    ensurePrivateDir(path.dirname(this.file));
    const lock = `${this.file}.lock`;
    const token = newLockToken();
    await acquire(lock, token);
    try {
      const lines = this.readLines();
      const { records, result } = change(recordsOf(lines));
      const byId = new Map(records.map((record) => [record.id, record]));
      // Memories keep their lines; new ones go at the end; removed ones go.
      const kept: StoreLine[] = [];
      for (const line of lines) {
        if (!("record" in line)) kept.push(line);
        else if (byId.has(line.record.id)) {
          kept.push({ record: byId.get(line.record.id) as MemoryRecord });
          byId.delete(line.record.id);
        }
      }
      for (const record of byId.values()) kept.push({ record });
      replacePrivateFile(this.file, serializeStore(kept));
      return result;
    } finally {
      unlockFile(lock, token);
    }
  }
}

/**
 * Makes the store's folder, and the `memory` folder above it, private (0700): a store holds what
 * the agent learned about your work. Made with that mode, and set again should an older folder be looser.
 */
export function ensurePrivateDir(dir: string): void {
  makePrivateDir(dir);
  chmodSync(dir, 0o700);
  const parent = path.dirname(dir);
  if (path.basename(parent) === "memory") chmodSync(parent, 0o700);
}

/**
 * A lock still counts while its holder runs and is younger than any change takes. Within this process changes
 * are queued, so a lock naming this pid is one an earlier process with the same pid left behind.
 */
function holderIsLive(record: LockRecord, file: string): boolean {
  if (!record.holder || record.holder.pid === process.pid) return false;
  let age = Number.POSITIVE_INFINITY;
  try {
    age = Date.now() - statSync(file).mtimeMs;
  } catch {
    // gone meanwhile: not live
  }
  return age < STALE_LOCK_MS && isProcessRunning(record.holder);
}

async function acquire(lock: string, token: string): Promise<void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    const attempt = tryLockFile(lock, token, holderIsLive);
    if (attempt.taken) return;
    if (Date.now() > deadline)
      throw new MemoryStoreError(
        `The memory store is locked by process ${attempt.holder ?? "?"} (${lock}); try again, or remove the lock file if no agent is running.`,
      );
    await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
  }
}

/**
 * One writer per session, across processes: `<session dir>/session.lock` names the process that has the
 * session open. Two writers would interleave their events in one events.jsonl and break the parentId chain
 * and the conversation, so a second process is refused (or, for --continue, given a fresh session).
 *
 * The lock names its holder beyond the pid (start time and boot id where /proc has them, see
 * util/process-identity.ts) and carries a random token. It is stale, and taken over without anyone deleting
 * a file, when its holder is gone, a zombie, from another boot, a later process reusing the pid, or this very
 * process without holding it (a container gives every run the same pid). The first line stays the bare pid,
 * so older versions still read it.
 *
 * Taking over is atomic. A new lock is written complete under a temporary name and hard-linked into place
 * (`link` fails when a lock exists). A stale lock is replaced only by the process that first creates
 * `session.lock.claim-<digest of the stale content>` the same way: holding that claim, it checks that the
 * lock still holds exactly what it judged stale and renames its own lock over it. Nobody else may replace
 * that content meanwhile, so no two processes ever both believe they hold the lock. A claim left by a
 * process that died while holding it is stale in turn and taken over by the same rule.
 */
import { createHash, randomBytes } from "node:crypto";
import { linkSync, readFileSync, renameSync, unlinkSync } from "node:fs";
import path from "node:path";
import { currentProcessIdentity, isProcessRunning, type ProcessIdentity } from "../util/process-identity.js";
import { fsFailure } from "../util/fs-failure.js";
import { writePrivateFile } from "../util/private-files.js";

export const LOCK_FILE = "session.lock";

export class SessionLockedError extends Error {
  constructor(
    readonly sessionId: string,
    readonly pid: number,
  ) {
    super(
      pid === process.pid
        ? `Session ${sessionId} is already open in this agent.`
        : `Session ${sessionId} is open in another agent process (pid ${pid}). Close it there first, or start a new session.`,
    );
    this.name = "SessionLockedError";
  }
}

/** Locks this process holds (file → token), released at exit even when nobody closes the session. */
const held = new Map<string, string>();
let exitHookInstalled = false;

interface LockRecord {
  /** The file's whole text: what a takeover compares before replacing it. */
  raw: string;
  holder?: ProcessIdentity;
  token?: string;
}

function lockText(token: string): string {
  const self = currentProcessIdentity();
  return [`${self.pid}`, ...(self.startTime ? [`started ${self.startTime}`] : []), ...(self.bootId ? [`boot ${self.bootId}`] : []), `token ${token}`, ""].join(
    "\n",
  );
}

function parseLock(raw: string): LockRecord {
  const [first = "", ...rest] = raw.split("\n");
  const pid = Number(first.trim());
  const fields = new Map(rest.map((line) => [line.slice(0, line.indexOf(" ")), line.slice(line.indexOf(" ") + 1).trim()] as const));
  if (!Number.isInteger(pid) || pid <= 0) return { raw };
  const startTime = fields.get("started");
  const bootId = fields.get("boot");
  return {
    raw,
    holder: { pid, ...(startTime ? { startTime } : {}), ...(bootId ? { bootId } : {}) },
    ...(fields.get("token") ? { token: fields.get("token") } : {}),
  };
}

function readRaw(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function readLock(file: string): LockRecord | undefined {
  const raw = readRaw(file);
  return raw === undefined ? undefined : parseLock(raw);
}

/** Whether the process a lock (or claim) at `file` names still holds it. */
function isLive(record: LockRecord, file: string): boolean {
  if (!record.holder) return false; // unreadable: nobody can be named as its holder
  // Our own pid: ours only if this process took it; otherwise an earlier process that had our pid left it.
  if (record.holder.pid === process.pid) return record.token !== undefined && held.get(file) === record.token;
  return isProcessRunning(record.holder);
}

/** The pid of the live process holding the session in `dir`, or undefined when it is free (or stale). */
export function sessionLockHolder(dir: string): number | undefined {
  const file = path.join(dir, LOCK_FILE);
  const record = readLock(file);
  return record && isLive(record, file) ? record.holder?.pid : undefined;
}

export interface SessionLock {
  readonly file: string;
  release(): void;
}

/** Creates `file` holding `text`, complete from its first moment; false when it exists. */
function createExclusive(file: string, text: string): boolean {
  const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  writePrivateFile(temporary, text, { exclusive: true });
  try {
    linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    unlinkQuietly(temporary);
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // nothing to remove
  }
}

/** The claim a process creates before replacing `staleText` in `file`: one name per stale content. */
export function claimPath(file: string, staleText: string): string {
  return `${file}.claim-${createHash("sha256").update(staleText).digest("hex").slice(0, 16)}`;
}

/**
 * Replaces the stale content `stale` of `file` with `mine`. True when done; false when the file changed
 * meanwhile (look again); a pid when a live process is taking it over right now.
 */
function replaceStale(file: string, stale: LockRecord, mine: string, depth = 0): boolean | number {
  const claim = claimPath(file, stale.raw);
  if (!createExclusive(claim, mine)) {
    const other = readLock(claim);
    if (!other) return false;
    if (isLive(other, claim)) return other.holder?.pid ?? false;
    // A claimant that died mid-takeover: its claim is taken over like a lock (bounded: each level needs a crash).
    if (depth >= 4) return false;
    const taken = replaceStale(claim, other, mine, depth + 1);
    if (taken !== true) return taken;
  }
  try {
    if (readRaw(file) !== stale.raw) return false;
    const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
    writePrivateFile(temporary, mine, { exclusive: true });
    renameSync(temporary, file);
    return true;
  } finally {
    if (readRaw(claim) === mine) unlinkQuietly(claim);
  }
}

/** Takes the session's lock or throws SessionLockedError naming the holder (a FileSystemFailure when it cannot be written). */
export function acquireSessionLock(dir: string, sessionId: string): SessionLock {
  const file = path.join(dir, LOCK_FILE);
  if (held.has(file)) throw new SessionLockedError(sessionId, process.pid);
  const token = randomBytes(12).toString("hex");
  try {
    takeLock(file, sessionId, token);
  } catch (error) {
    throw error instanceof SessionLockedError ? error : fsFailure(error, `Could not lock the session (${file})`);
  }
  held.set(file, token);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", () => {
      for (const lock of [...held.keys()]) releaseFile(lock);
    });
  }
  let released = false;
  return {
    file,
    release: () => {
      if (released) return;
      released = true;
      releaseFile(file);
    },
  };
}

function takeLock(file: string, sessionId: string, token: string): void {
  const mine = lockText(token);
  let taken = false;
  for (let attempt = 0; attempt < 5 && !taken; attempt++) {
    if (createExclusive(file, mine)) {
      taken = true;
      break;
    }
    const current = readLock(file);
    if (!current) continue; // released meanwhile: try again
    if (isLive(current, file)) throw new SessionLockedError(sessionId, current.holder?.pid ?? 0);
    const outcome = replaceStale(file, current, mine);
    if (typeof outcome === "number") throw new SessionLockedError(sessionId, outcome);
    taken = outcome;
  }
  if (!taken) throw new SessionLockedError(sessionId, readLock(file)?.holder?.pid ?? 0);
}

function releaseFile(file: string): void {
  const token = held.get(file);
  held.delete(file);
  // Only our own lock is removed: never one a later process took over.
  if (token !== undefined && readLock(file)?.token === token) unlinkQuietly(file);
}

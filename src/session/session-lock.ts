/**
 * One writer per session, across processes: `<session dir>/session.lock` names the process that has the
 * session open. Two writers would interleave their events in one events.jsonl and break the parentId chain
 * and the conversation, so a second process is refused (or, for --continue, given a fresh session).
 *
 * The lock file (src/util/lock-file.ts) names its holder beyond the pid and carries a random token. It is
 * stale, and taken over atomically, when its holder is gone, a zombie, from another boot, a later process
 * reusing the pid, or this very process without holding it (a container gives every run the same pid).
 */
import path from "node:path";
import { fsFailure } from "../util/fs-failure.js";
import { claimPath, newLockToken, readLock, tryLockFile, unlockFile, type LockRecord } from "../util/lock-file.js";
import { isProcessRunning } from "../util/process-identity.js";

export { claimPath };

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

/** Takes the session's lock or throws SessionLockedError naming the holder (a FileSystemFailure when it cannot be written). */
export function acquireSessionLock(dir: string, sessionId: string): SessionLock {
  const file = path.join(dir, LOCK_FILE);
  if (held.has(file)) throw new SessionLockedError(sessionId, process.pid);
  const token = newLockToken();
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
  const attempt = tryLockFile(file, token, isLive);
  if (!attempt.taken) throw new SessionLockedError(sessionId, attempt.holder ?? 0);
}

function releaseFile(file: string): void {
  const token = held.get(file);
  held.delete(file);
  // Only our own lock is removed: never one a later process took over.
  if (token !== undefined) unlockFile(file, token);
}

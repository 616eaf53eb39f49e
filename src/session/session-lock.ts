/**
 * One writer per session, across processes: `<session dir>/session.lock` holds the pid of the process that
 * has the session open. Two writers would interleave their events in one events.jsonl and break the
 * parentId chain and the conversation, so a second process is refused (or, for --continue, given a fresh
 * session). A lock whose pid is no longer running (a crash, SIGKILL) is stale and taken over.
 *
 * The lock file is written complete under a temporary name and then hard-linked into place: `link` fails
 * atomically when the lock exists, so no reader ever sees a half-written pid.
 */
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

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

/** Locks this process holds, released at exit even when nobody closes the session. */
const held = new Set<string>();
let exitHookInstalled = false;

function readPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, "utf8"), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid exists (EPERM: it exists but belongs to someone else). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pid of the live process holding the session in `dir`, or undefined when it is free (or stale). */
export function sessionLockHolder(dir: string): number | undefined {
  const pid = readPid(path.join(dir, LOCK_FILE));
  return pid !== undefined && isRunning(pid) ? pid : undefined;
}

export interface SessionLock {
  readonly file: string;
  release(): void;
}

function tryLink(tmp: string, file: string): boolean {
  try {
    linkSync(tmp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/** Moves a stale lock aside; false if what was moved turned out to be live (then it is put back). */
function clearStale(file: string): boolean {
  const aside = `${file}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(file, aside);
  } catch {
    return true; // already gone: someone else cleared it
  }
  // Between our check and the rename another process may have replaced the stale lock with its own.
  const pid = readPid(aside);
  if (pid !== undefined && isRunning(pid)) {
    try {
      linkSync(aside, file);
    } catch {
      // Someone else locked meanwhile; their lock stands either way.
    }
    unlinkQuietly(aside);
    return false;
  }
  unlinkQuietly(aside);
  return true;
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // nothing to remove
  }
}

/** Takes the session's lock or throws SessionLockedError naming the holder. */
export function acquireSessionLock(dir: string, sessionId: string): SessionLock {
  const file = path.join(dir, LOCK_FILE);
  if (held.has(file)) throw new SessionLockedError(sessionId, process.pid);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${process.pid}\n`);
  try {
    for (let attempt = 0; ; attempt++) {
      if (tryLink(tmp, file)) break;
      const pid = readPid(file);
      if (pid !== undefined && isRunning(pid)) throw new SessionLockedError(sessionId, pid);
      // Stale (its process is gone) or unreadable: take it over, a few times at most under contention.
      if (!clearStale(file) || attempt >= 3) throw new SessionLockedError(sessionId, readPid(file) ?? 0);
    }
  } finally {
    unlinkQuietly(tmp);
  }
  held.add(file);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", () => {
      for (const lock of held) releaseFile(lock);
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

function releaseFile(file: string): void {
  held.delete(file);
  // Only our own lock is removed: never one a later process took over.
  if (readPid(file) === process.pid) unlinkQuietly(file);
}

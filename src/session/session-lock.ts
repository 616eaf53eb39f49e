/**
 * One writer per session, across processes: `<session dir>/session.lock` holds the pid of the process that
 * has the session open. Two writers would interleave their events in one events.jsonl and break the
 * parentId chain and the conversation, so a second process is refused (or, for --continue, given a fresh
 * session). A lock whose pid is no longer running (a crash, SIGKILL) is stale and taken over (the lock
 * file itself is src/util/pid-lock.ts).
 */
import path from "node:path";
import { isProcessRunning, readLockPid, tryLockFile, unlinkQuietly } from "../util/pid-lock.js";

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

/** The pid of the live process holding the session in `dir`, or undefined when it is free (or stale). */
export function sessionLockHolder(dir: string): number | undefined {
  const pid = readLockPid(path.join(dir, LOCK_FILE));
  return pid !== undefined && isProcessRunning(pid) ? pid : undefined;
}

export interface SessionLock {
  readonly file: string;
  release(): void;
}

/** Takes the session's lock or throws SessionLockedError naming the holder. */
export function acquireSessionLock(dir: string, sessionId: string): SessionLock {
  const file = path.join(dir, LOCK_FILE);
  if (held.has(file)) throw new SessionLockedError(sessionId, process.pid);
  const attempt = tryLockFile(file);
  if (!attempt.taken) throw new SessionLockedError(sessionId, attempt.holder ?? 0);
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
  if (readLockPid(file) === process.pid) unlinkQuietly(file);
}

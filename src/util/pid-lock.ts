/**
 * A lock file that names the pid of its holder, shared by every lock the agent takes across processes (a
 * session's log, a memory store). The file is written complete under a temporary name and hard-linked into
 * place: `link` fails atomically when the lock exists, so no reader ever sees half a pid. A lock whose holder
 * is gone (a crash, SIGKILL) is stale and taken over, so a dead process never locks anything.
 */
import { linkSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";

export function readLockPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(file, "utf8"), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid exists (EPERM: it exists but belongs to someone else). */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** How old a lock file is, in milliseconds (Infinity when it is gone). */
export function lockAgeMs(file: string): number {
  try {
    return Date.now() - statSync(file).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

export function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // nothing to remove
  }
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
function clearStale(file: string, isLive: (pid: number | undefined, file: string) => boolean): boolean {
  const aside = `${file}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(file, aside);
  } catch {
    return true; // already gone: someone else cleared it
  }
  // Between our check and the rename another process may have replaced the stale lock with its own.
  if (isLive(readLockPid(aside), aside)) {
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

export type LockAttempt = { taken: true } | { taken: false; holder: number | undefined };

/**
 * Takes the lock if it is free or stale. `isLive` says whether a holder still counts (by default: its
 * process runs); a lock held by a live holder is left alone and its pid returned.
 */
export function tryLockFile(
  file: string,
  isLive: (pid: number | undefined, file: string) => boolean = (pid) => pid !== undefined && isProcessRunning(pid),
): LockAttempt {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${process.pid}\n`);
  try {
    for (let attempt = 0; ; attempt++) {
      if (tryLink(tmp, file)) return { taken: true };
      const pid = readLockPid(file);
      if (isLive(pid, file)) return { taken: false, holder: pid };
      // Stale (its holder is gone) or unreadable: take it over, a few times at most under contention.
      if (!clearStale(file, isLive) || attempt >= 3) return { taken: false, holder: readLockPid(file) };
    }
  } finally {
    unlinkQuietly(tmp);
  }
}

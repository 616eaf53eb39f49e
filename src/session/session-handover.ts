/**
 * Handing a session from one process to another, without two writers ever: a process that wants a session
 * another process holds leaves `<session dir>/handover.request` and waits for the lock to go; the holder, if
 * it agrees to hand sessions over (the SDK server does, a person's terminal does not), sees the request and
 * closes the session once it is idle, which releases the lock. Nothing is taken by force: a holder that does
 * not answer keeps the session, and the request lapses when the waiter's patience ends.
 */
import { existsSync, watch, type FSWatcher } from "node:fs";
import path from "node:path";
import { unlinkQuietly } from "../util/lock-file.js";
import { writePrivateFile } from "../util/private-files.js";
import { sessionLockHolder } from "./session-lock.js";

export const HANDOVER_REQUEST = "handover.request";

/** Runs `check` on every change in the directory (none when it cannot be watched). */
function watchFile(dir: string, check: () => void): FSWatcher | undefined {
  try {
    const watcher = watch(dir, () => check());
    watcher.on("error", () => watcher.close());
    return watcher;
  } catch {
    return undefined;
  }
}

/**
 * Asks the holder of the session in `dir` to hand it over, and resolves true once no live process holds it
 * (false when `timeoutMs` passes first). The request is withdrawn either way.
 */
export function requestHandover(dir: string, timeoutMs: number): Promise<boolean> {
  const request = path.join(dir, HANDOVER_REQUEST);
  writePrivateFile(request, `${process.pid}\n`);
  return new Promise((resolve) => {
    let watcher: FSWatcher | undefined;
    const done = (free: boolean) => {
      clearTimeout(timer);
      watcher?.close();
      unlinkQuietly(request);
      resolve(free);
    };
    const check = () => {
      if (sessionLockHolder(dir) === undefined) done(true);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    timer.unref();
    watcher = watchFile(dir, check);
    check();
  });
}

/**
 * Calls `onRequest` when another process asks for the session in `dir` (at once if it already has). Returns
 * the way to stop watching.
 */
export function watchHandoverRequests(dir: string, onRequest: () => void): () => void {
  const request = path.join(dir, HANDOVER_REQUEST);
  let asked = false;
  const check = () => {
    if (asked || !existsSync(request)) return;
    asked = true;
    onRequest();
  };
  const watcher = watchFile(dir, check);
  check();
  return () => watcher?.close();
}

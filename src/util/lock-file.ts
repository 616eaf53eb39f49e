/**
 * A lock file across processes, shared by every lock the agent takes (a session's log, a memory store).
 *
 * The lock names its holder beyond the pid (start time and boot id where /proc has them, see
 * process-identity.ts) and carries a random token. The first line stays the bare pid, so older versions still
 * read it. Whether a holder still counts is the caller's rule (`isLive`); a lock whose holder does not is
 * stale and taken over without anyone deleting a file.
 *
 * Taking over is atomic. A new lock is written complete under a temporary name and hard-linked into place
 * (`link` fails when a lock exists). A stale lock is replaced only by the process that first creates
 * `<lock>.claim-<digest of the stale content>` the same way: holding that claim, it checks that the lock still
 * holds exactly what it judged stale and renames its own lock over it. Nobody else may replace that content
 * meanwhile, so no two processes ever both believe they hold the lock. A claim left by a process that died
 * while holding it is stale in turn and taken over by the same rule.
 */
import { linkSync, readFileSync, renameSync, unlinkSync } from "node:fs";
import { sha256Hex } from "./digest.js";
import { currentProcessIdentity, type ProcessIdentity } from "./process-identity.js";
import { writePrivateFile } from "./private-files.js";
import { randomBytes } from "./random-id.js";

export interface LockRecord {
  /** The file's whole text: what a takeover compares before replacing it. */
  raw: string;
  holder?: ProcessIdentity;
  token?: string;
}

/** Whether the holder a lock (or claim) at `file` names still holds it. */
export type IsLive = (record: LockRecord, file: string) => boolean;

export function newLockToken(): string {
  return randomBytes(12).toString("hex");
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

export function readLock(file: string): LockRecord | undefined {
  const raw = readRaw(file);
  return raw === undefined ? undefined : parseLock(raw);
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

export function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // nothing to remove
  }
}

/** The claim a process creates before replacing `staleText` in `file`: one name per stale content. */
export function claimPath(file: string, staleText: string): string {
  return `${file}.claim-${sha256Hex(staleText).slice(0, 16)}`;
}

/**
 * Replaces the stale content `stale` of `file` with `mine`. True when done; false when the file changed
 * meanwhile (look again); a pid when a live process is taking it over right now.
 */
function replaceStale(file: string, stale: LockRecord, mine: string, isLive: IsLive, depth = 0): boolean | number {
  const claim = claimPath(file, stale.raw);
  if (!createExclusive(claim, mine)) {
    const other = readLock(claim);
    if (!other) return false;
    if (isLive(other, claim)) return other.holder?.pid ?? false;
    // A claimant that died mid-takeover: its claim is taken over like a lock (bounded: each level needs a crash).
    if (depth >= 4) return false;
    const taken = replaceStale(claim, other, mine, isLive, depth + 1);
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

export type LockAttempt = { taken: true } | { taken: false; holder: number | undefined };

/** Takes the lock at `file` for `token` if it is free or stale; otherwise names the live holder's pid. */
export function tryLockFile(file: string, token: string, isLive: IsLive): LockAttempt {
  const mine = lockText(token);
  for (let attempt = 0; attempt < 5; attempt++) {
    if (createExclusive(file, mine)) return { taken: true };
    const current = readLock(file);
    if (!current) continue; // released meanwhile: try again
    if (isLive(current, file)) return { taken: false, holder: current.holder?.pid };
    const outcome = replaceStale(file, current, mine, isLive);
    if (typeof outcome === "number") return { taken: false, holder: outcome };
    if (outcome) return { taken: true };
  }
  return { taken: false, holder: readLock(file)?.holder?.pid };
}

/** Removes the lock if it is still the one `token` took: never one a later process took over. */
export function unlockFile(file: string, token: string): void {
  if (readLock(file)?.token === token) unlinkQuietly(file);
}

/**
 * Everything the agent keeps under AGENT_HOME is private: transcripts hold file contents and command
 * output, configs may hold tokens, so other local users must not read them. Folders are made 0700 and files
 * 0600 whatever the umask (an explicit mode only loses bits to the umask, so what is created is also set
 * exactly). Only what the agent creates is tightened: an existing folder (AGENT_HOME chosen by the user, a
 * workspace) keeps its mode.
 */
import { chmodSync, closeSync, existsSync, fchmodSync, fstatSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` and any missing parents 0700; existing folders are left as they are. */
export function makePrivateDir(dir: string): void {
  const missing: string[] = [];
  for (let current = path.resolve(dir); !existsSync(current); current = path.dirname(current)) {
    missing.unshift(current);
    if (current === path.dirname(current)) break;
  }
  // One level at a time, each set exactly before the next is made in it: a umask like 277 would otherwise
  // leave a level the next one cannot be created in.
  for (const level of missing) {
    try {
      mkdirSync(level, { mode: PRIVATE_DIR_MODE });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") continue; // made meanwhile by someone else: theirs
      throw error;
    }
    chmodSync(level, PRIVATE_DIR_MODE);
  }
}

/**
 * Opens `file` with `flags` ("w", "a+", "wx"…); a file this call creates is 0600. An existing file keeps
 * its mode unless `tighten` (a file that is the agent's own by its place, such as a session's log).
 */
export function openPrivateFile(file: string, flags: string, options: { tighten?: boolean } = {}): number {
  let fd: number;
  let created = false;
  try {
    fd = openSync(file, flags.includes("x") ? flags : `${flags[0]}x${flags.slice(1)}`, PRIVATE_FILE_MODE);
    created = true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST" || flags.includes("x")) throw error;
    fd = openSync(file, flags, PRIVATE_FILE_MODE);
  }
  if (created || options.tighten) {
    try {
      // Only a regular file: a path pointing at a device (/dev/null, /dev/full) must keep its mode.
      if (fstatSync(fd).isFile()) fchmodSync(fd, PRIVATE_FILE_MODE);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
  }
  return fd;
}

/** Writes `data` to `file` (0600 when it creates it); `exclusive` fails when the file exists. */
export function writePrivateFile(file: string, data: string | Uint8Array, options: { exclusive?: boolean; append?: boolean; tighten?: boolean } = {}): void {
  const fd = openPrivateFile(file, options.exclusive ? "wx" : options.append ? "a" : "w", { tighten: options.tighten === true });
  try {
    writeAll(fd, typeof data === "string" ? Buffer.from(data) : data);
  } finally {
    closeSync(fd);
  }
}

/**
 * Replaces `file` whole: written under a temporary name (0600) and renamed into place, so a reader never
 * sees half a file and the result is private (the rename replaces any older, wider file).
 */
export function replacePrivateFile(file: string, data: string | Uint8Array): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    // A temporary left by a crashed process with the same pid is ours too: tightened, not trusted.
    writePrivateFile(temporary, data, { tighten: true });
    renameSync(temporary, file);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // never written, or already renamed
    }
    throw error;
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

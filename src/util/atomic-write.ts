/**
 * Writes a file whole under a temporary name in the same folder, then renames it into place: a reader (another
 * session, a crash halfway) sees the old file or the new one, never half of one. `mode` applies to the new file.
 */
import { renameSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { unlinkQuietly } from "./pid-lock.js";

export function writeFileAtomic(file: string, text: string, options: { mode?: number } = {}): void {
  const temporary = `${file}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`;
  try {
    writeFileSync(temporary, text, { mode: options.mode ?? 0o666, flag: "wx" });
    renameSync(temporary, file);
  } catch (error) {
    unlinkQuietly(temporary);
    throw error;
  }
}

/**
 * The suite's temp folders. Every one made through `tempDir` is removed after its test file
 * (test/setup-temp-dirs.ts), so a run leaves the system's temp folder as it found it; one a test removes
 * itself earlier is simply gone by then. Inside a vitest run each name carries the run's tag
 * (AGENT_TEST_RUN, set by vitest.config.ts), so test/temp-leak-check.ts can find exactly this run's leftovers
 * even while other runs share the machine.
 */
import { chmodSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export const RUN_TAG_VARIABLE = "AGENT_TEST_RUN";

/** The marker a name made in this run carries ("" outside a vitest run). */
export function runTag(): string {
  const tag = process.env[RUN_TAG_VARIABLE];
  return tag ? `t${tag}-` : "";
}

const made = new Set<string>();

/** A new empty folder under the system's temp folder, named `<prefix><run tag><random>`, real path (no symlinks). */
export function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), `${prefix}${runTag()}`)));
  if (made.size === 0) process.once("exit", removeTempDirs);
  made.add(dir);
  return dir;
}

/** Gives the owner every right on `dir` and below (a test may have made part of it read-only). */
function makeWritable(dir: string): void {
  try {
    chmodSync(dir, 0o700);
    for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) makeWritable(path.join(dir, entry.name));
  } catch {
    // gone already, or not ours: the removal below says what is left
  }
}

/**
 * Removes every folder `tempDir` made in this process (also at exit, for a file whose hooks never ran); retried,
 * since a child that just exited may still be closing files there. What cannot be removed stays for the leak check.
 */
export function removeTempDirs(): void {
  for (const dir of made) {
    made.delete(dir);
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    } catch {
      makeWritable(dir);
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
      } catch {
        // left for the leak check to name
      }
    }
  }
}

import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { removeTempDirs, runTag, tempDir } from "./temp-dirs.js";

describe("the suite's temp folders", () => {
  it("carry the run's tag under the system temp folder, so the leak check finds this run's leftovers", () => {
    const dir = tempDir("temp-dirs-test-");
    expect(runTag()).not.toBe("");
    expect(path.dirname(dir)).toBe(realpathSync(os.tmpdir()));
    expect(path.basename(dir).startsWith(`temp-dirs-test-${runTag()}`)).toBe(true);
    removeTempDirs();
    expect(existsSync(dir)).toBe(false);
  });

  it("are removed even when a test left part of one read-only", () => {
    const dir = tempDir("temp-dirs-test-");
    const locked = path.join(dir, "locked");
    mkdirSync(path.join(locked, "inner"), { recursive: true });
    writeFileSync(path.join(locked, "inner", "file.txt"), "x");
    chmodSync(path.join(locked, "inner"), 0o500);
    chmodSync(locked, 0o500);
    removeTempDirs();
    expect(existsSync(dir)).toBe(false);
  });
});

/** Every test source file, relative to test/. */
function testFiles(dir: string, prefix = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? testFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`) : /\.tsx?$/.test(entry.name) ? [`${prefix}${entry.name}`] : [],
  );
}

describe("temp folders in the suite", () => {
  it("are made with tempDir: no test makes one in the system temp folder by hand, which would outlive the run", () => {
    const root = fileURLToPath(new URL("..", import.meta.url));
    // These two test the literal /tmp (as TMPDIR's parent) and remove it in a finally.
    const literalTmp = new Set(["permissions/path-gate.test.ts", "e2e/permissions.test.ts"]);
    const byHand = /mkdtemp(Sync)?\(\s*(path\.)?join\(\s*(os\.)?tmpdir\(\)|mkdtemp(Sync)?\(\s*["'`]\/tmp\//;
    const offenders = testFiles(root).filter(
      (file) => file !== "support/temp-dirs.ts" && !literalTmp.has(file) && byHand.test(readFileSync(path.join(root, file), "utf8")),
    );
    expect(offenders).toEqual([]);
  });
});

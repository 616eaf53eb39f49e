import { chmodSync, existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
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

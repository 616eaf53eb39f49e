/** The session's files/ folder: private pastes, a recursive listing, and reads that never leave the folder. */
import { existsSync, mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listWorkspaceFiles, readWorkspaceFile, saveLargePaste, workspaceFilesDir, writeWorkspaceFile } from "../../src/session/workspace-files.js";
import { tempDir } from "../support/temp-dirs.js";

let sessionDir: string;
beforeEach(() => {
  sessionDir = tempDir("workspace-files-");
});
afterEach(() => rmSync(sessionDir, { recursive: true, force: true }));

describe("workspace files", () => {
  it("lists nothing before a first file, then every file below files/, sorted", () => {
    expect(listWorkspaceFiles(sessionDir)).toEqual([]);
    const first = saveLargePaste(sessionDir, "a");
    const second = saveLargePaste(sessionDir, "b");
    expect(first.filename).not.toBe(second.filename);
    expect(statSync(workspaceFilesDir(sessionDir)).mode & 0o777).toBe(0o700);
    mkdirSync(path.join(workspaceFilesDir(sessionDir), "nested"));
    writeFileSync(path.join(workspaceFilesDir(sessionDir), "nested", "x.md"), "x");
    expect(listWorkspaceFiles(sessionDir)).toEqual(["nested/x.md", first.filename, second.filename].sort());
    expect(readWorkspaceFile(sessionDir, "nested/x.md")).toBe("x");
  });

  it("refuses paths that leave the folder, by name or through a symbolic link", () => {
    saveLargePaste(sessionDir, "inside");
    writeFileSync(path.join(sessionDir, "secret.txt"), "outside");
    symlinkSync(path.join(sessionDir, "secret.txt"), path.join(workspaceFilesDir(sessionDir), "link.txt"));
    for (const bad of ["../secret.txt", path.join(sessionDir, "secret.txt"), "link.txt", ".", ""]) {
      expect(() => readWorkspaceFile(sessionDir, bad), bad).toThrow(/Path escapes the workspace files directory/);
    }
  });

  it("creates then updates a file, making its folders private, and writes nothing through a link or outside", () => {
    expect(writeWorkspaceFile(sessionDir, "a/b/c.txt", "one")).toBe("create");
    expect(writeWorkspaceFile(sessionDir, "a/b/c.txt", "two")).toBe("update");
    expect(readWorkspaceFile(sessionDir, "a/b/c.txt")).toBe("two");
    expect(statSync(path.join(workspaceFilesDir(sessionDir), "a", "b")).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(workspaceFilesDir(sessionDir), "a", "b", "c.txt")).mode & 0o777).toBe(0o600);
    const outside = path.join(sessionDir, "outside");
    mkdirSync(outside);
    symlinkSync(outside, path.join(workspaceFilesDir(sessionDir), "out"));
    symlinkSync(path.join(sessionDir, "target.txt"), path.join(workspaceFilesDir(sessionDir), "link.txt"));
    for (const bad of ["out/x.txt", "link.txt", "../x.txt", path.join(sessionDir, "x.txt")]) {
      expect(() => writeWorkspaceFile(sessionDir, bad, "x"), bad).toThrow(/Path escapes the workspace files directory/);
    }
    expect(existsSync(path.join(outside, "x.txt")) || existsSync(path.join(sessionDir, "target.txt")) || existsSync(path.join(sessionDir, "x.txt"))).toBe(
      false,
    );
  });
});

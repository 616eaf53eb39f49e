/**
 * session.workspaces.diff's modes over real files: git's working tree against HEAD and against the default
 * branch (renames, deletions, untracked files, whitespace, a subdirectory as the working directory, the
 * per-file limit), and the session's own changes from /rewind's snapshots, with no git at all.
 */
import { mkdirSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_FILE_DIFF_CHARS, workspaceDiff } from "../../src/core/session-admin/workspace-diff.js";
import { SnapshotStore } from "../../src/session/rewind/snapshot-store.js";
import { BASE_FILES, git, initRepo, makeChanges, writeFiles } from "../support/git-repo.js";
import { tempDir } from "../support/temp-dirs.js";

const scratch = () => tempDir("workspace-diff-");

const byPath = <T extends { path: string }>(changes: readonly T[]): Record<string, T> => Object.fromEntries(changes.map((change) => [change.path, change]));

describe("workspace diff", () => {
  it("unstaged: staged, unstaged and untracked changes, each file with its own diff", async () => {
    const repo = scratch();
    initRepo(repo, { ...BASE_FILES, "gone.ts": "bye\n", "old-name.ts": "same content here\nline two\nline three\n" });
    makeChanges(repo);
    unlinkSync(path.join(repo, "gone.ts"));
    git(repo, "mv", "old-name.ts", "new-name.ts");
    const result = await workspaceDiff(repo, scratch(), "unstaged");
    expect(result).toMatchObject({ requestedMode: "unstaged", mode: "unstaged", isFallback: false });
    const files = byPath(result.changes);
    expect(Object.keys(files).sort()).toEqual(["gone.ts", "new-file.ts", "new-name.ts", "staged.ts", "unstaged.ts"]);
    expect(files["staged.ts"]).toMatchObject({ changeType: "modified" });
    expect(files["staged.ts"]?.diff).toContain("+export const a = 2; // STAGED-CHANGE");
    expect(files["staged.ts"]?.diff).not.toContain("UNSTAGED-CHANGE");
    expect(files["unstaged.ts"]?.diff).toContain("UNSTAGED-CHANGE");
    expect(files["new-file.ts"]).toMatchObject({ changeType: "added" });
    expect(files["new-file.ts"]?.diff).toContain("+export const c = 4; // UNTRACKED");
    expect(files["gone.ts"]).toMatchObject({ changeType: "deleted" });
    expect(files["new-name.ts"]).toMatchObject({ changeType: "renamed", oldPath: "old-name.ts" });
  });

  it("paths are relative to the working directory, ignoreWhitespace drops whitespace-only changes, and a huge diff is left out", async () => {
    const repo = scratch();
    initRepo(repo, { "src/spaces.ts": "const a = 1;\n", "src/big.txt": "small\n", "top.ts": "x\n" });
    writeFiles(repo, { "src/spaces.ts": "const  a  =  1;\n", "src/big.txt": "y".repeat(MAX_FILE_DIFF_CHARS + 10), "top.ts": "y\n" });
    const cwd = path.join(repo, "src");
    const all = byPath((await workspaceDiff(cwd, scratch(), "unstaged")).changes);
    expect(Object.keys(all).sort()).toEqual(["../top.ts", "big.txt", "spaces.ts"]);
    expect(all["big.txt"]).toMatchObject({ diff: "", isTruncated: true, changeType: "modified" });
    const quiet = byPath((await workspaceDiff(cwd, scratch(), "unstaged", true)).changes);
    expect(Object.keys(quiet).sort()).toEqual(["../top.ts", "big.txt"]);
  });

  it("branch: the commits since the default branch and the working tree, else unstaged saying it fell back", async () => {
    const repo = scratch();
    initRepo(repo, BASE_FILES);
    git(repo, "checkout", "-q", "-b", "feature");
    writeFiles(repo, { "committed.ts": "on the branch\n" });
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "feature work");
    writeFiles(repo, { "unstaged.ts": "export const b = 9;\n" });
    const branch = await workspaceDiff(repo, scratch(), "branch");
    expect(branch).toMatchObject({ requestedMode: "branch", mode: "branch", baseBranch: "main", isFallback: false });
    expect(Object.keys(byPath(branch.changes)).sort()).toEqual(["committed.ts", "unstaged.ts"]);
    const unstaged = await workspaceDiff(repo, scratch(), "unstaged");
    expect(unstaged.changes.map((change) => change.path)).toEqual(["unstaged.ts"]);

    const lone = scratch();
    git(lone, "init", "-q", "-b", "trunk");
    writeFiles(lone, { "a.txt": "a\n" });
    // Before the first commit there is no HEAD: every file is new (this once failed on `git diff HEAD`).
    expect(await workspaceDiff(lone, scratch(), "branch")).toMatchObject({
      requestedMode: "branch",
      mode: "unstaged",
      isFallback: true,
      changes: [{ path: "a.txt", changeType: "added" }],
    });
    const plain = scratch();
    expect(await workspaceDiff(plain, scratch(), "branch")).toEqual({ requestedMode: "branch", mode: "unstaged", changes: [], isFallback: true });
    expect(await workspaceDiff(plain, scratch(), "unstaged")).toEqual({ requestedMode: "unstaged", mode: "unstaged", changes: [], isFallback: false });
  });

  it("session: what the session's tools changed since before its first change, without git", async () => {
    const cwd = scratch();
    const sessionDir = scratch();
    const store = new SnapshotStore(sessionDir);
    const file = (name: string) => path.join(cwd, name);
    writeFileSync(file("edited.txt"), "one\ntwo\n");
    writeFileSync(file("removed.txt"), "keep me?\n");
    writeFileSync(file("untouched.txt"), "same\n");
    writeFileSync(file("back.txt"), "original\n");
    // What the tool runner does before a prompt's changes: each file's state saved in that prompt's index.
    const point = (eventId: string, names: string[]) =>
      store.writePoint({
        schema: 1,
        eventId,
        files: Object.fromEntries(names.map((name) => [file(name), { before: store.save(file(name)), linesAdded: 0, linesRemoved: 0 }])),
      });
    // Two prompts: the first creates and edits, the second edits again, removes, and puts one file back.
    point("p1", ["created.txt", "edited.txt", "back.txt"]);
    writeFileSync(file("created.txt"), "new\n");
    writeFileSync(file("edited.txt"), "one\nTWO\n");
    writeFileSync(file("back.txt"), "changed\n");
    point("p2", ["edited.txt", "removed.txt", "back.txt"]);
    writeFileSync(file("edited.txt"), "one\nTWO\nthree\n");
    unlinkSync(file("removed.txt"));
    writeFileSync(file("back.txt"), "original\n");
    mkdirSync(path.join(cwd, "unrelated"));

    const result = await workspaceDiff(cwd, sessionDir, "session");
    expect(result).toMatchObject({ requestedMode: "session", mode: "session", isFallback: false });
    const files = byPath(result.changes);
    expect(Object.keys(files)).toEqual(["created.txt", "edited.txt", "removed.txt"]);
    expect(files["created.txt"]).toMatchObject({ changeType: "added" });
    expect(files["created.txt"]?.diff).toContain("+new");
    expect(files["edited.txt"]).toMatchObject({ changeType: "modified" });
    expect(files["edited.txt"]?.diff).toMatch(/-two\n\+TWO\n\+three/);
    expect(files["removed.txt"]).toMatchObject({ changeType: "deleted" });
    expect(files["removed.txt"]?.diff).toContain("-keep me?");
    expect(await workspaceDiff(cwd, scratch(), "session")).toEqual({ requestedMode: "session", mode: "session", changes: [], isFallback: false });
  });
});

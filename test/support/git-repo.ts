/** A throwaway git repository for tests that review changes: commits files, then leaves some uncommitted. */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "Test",
      GIT_AUTHOR_EMAIL: "test@example.com",
      GIT_COMMITTER_NAME: "Test",
      GIT_COMMITTER_EMAIL: "test@example.com",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
    },
  });
}

export function writeFiles(cwd: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(cwd, name)), { recursive: true });
    writeFileSync(path.join(cwd, name), content);
  }
}

/** `git init` with one commit holding `files`. */
export function initRepo(cwd: string, files: Record<string, string>): void {
  git(cwd, "init", "-q", "-b", "main");
  writeFiles(cwd, files);
  git(cwd, "add", "-A");
  git(cwd, "commit", "-q", "-m", "initial");
}

/** A staged change to staged.ts, an unstaged one to unstaged.ts, and an untracked new-file.ts. */
export function makeChanges(cwd: string): void {
  writeFiles(cwd, { "staged.ts": "export const a = 2; // STAGED-CHANGE\n" });
  git(cwd, "add", "staged.ts");
  writeFiles(cwd, { "unstaged.ts": "export const b = 3; // UNSTAGED-CHANGE, like @staged.ts\n", "new-file.ts": "export const c = 4; // UNTRACKED\n" });
}

export const BASE_FILES = { "staged.ts": "export const a = 1;\n", "unstaged.ts": "export const b = 1;\n" };

/**
 * Facts about where the agent runs: the git root, branch and repository read straight from .git (no git
 * process on the start-up path), the OS and the shell.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { WorkingDirectoryContext } from "./events/index.js";

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** The directory holding `.git` (a folder, or a file pointing at a worktree's git dir), walking up from cwd. */
export function findGitRoot(cwd: string): { root: string; gitDir: string } | undefined {
  let dir = path.resolve(cwd);
  for (;;) {
    const dotGit = path.join(dir, ".git");
    if (existsSync(dotGit)) {
      if (statSync(dotGit).isDirectory()) return { root: dir, gitDir: dotGit };
      const pointer = /^gitdir:\s*(.+)$/m.exec(readText(dotGit) ?? "");
      if (pointer) return { root: dir, gitDir: path.resolve(dir, (pointer[1] as string).trim()) };
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function repositoryFromConfig(gitDir: string): string | undefined {
  // A worktree's git dir holds a `commondir` file pointing at the main one, where the config lives.
  const common = readText(path.join(gitDir, "commondir"))?.trim();
  const config = readText(path.join(common ? path.resolve(gitDir, common) : gitDir, "config"));
  const url = /\[remote "origin"\][^[]*?url\s*=\s*(\S+)/.exec(config ?? "")?.[1];
  const match = url ? /[:/]([^/:]+)\/([^/]+?)(?:\.git)?\/?$/.exec(url) : null;
  return match ? `${match[1]}/${match[2]}` : undefined;
}

export function workingDirectoryContext(cwd: string): WorkingDirectoryContext {
  const git = findGitRoot(cwd);
  if (!git) return { cwd };
  const head = readText(path.join(git.gitDir, "HEAD"))?.trim() ?? "";
  const branch = /^ref: refs\/heads\/(.+)$/.exec(head)?.[1];
  return {
    cwd,
    gitRoot: git.root,
    ...(branch ? { branch } : /^[0-9a-f]{40}$/.test(head) ? { headCommit: head } : {}),
    ...(repositoryFromConfig(git.gitDir) ? { repository: repositoryFromConfig(git.gitDir) } : {}),
  };
}

export function describeOs(): string {
  return `${os.type()} ${os.release()} (${process.platform}/${process.arch})`;
}

export function userShell(): string {
  return process.env.SHELL ? path.basename(process.env.SHELL) : "sh";
}

/**
 * Facts about where the agent runs: the git root, branch and repository read straight from .git (no git
 * process on the start-up path), the OS and the shell.
 */
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { findGitRoot } from "../util/git-root.js";
import type { WorkingDirectoryContext } from "../protocol/events/index.js";

export { findGitRoot };

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
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

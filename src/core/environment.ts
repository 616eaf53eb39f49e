/**
 * Facts about where the agent runs: the git root, branch and repository read straight from .git (no git
 * process on the start-up path), the OS and the shell.
 */
import os from "node:os";
import path from "node:path";
import { findGitRoot, originRemoteUrl, readText } from "../util/git-root.js";
import type { WorkingDirectoryContext } from "../protocol/events/index.js";

export { findGitRoot };

function repositoryFromConfig(gitDir: string): string | undefined {
  const url = originRemoteUrl(gitDir);
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

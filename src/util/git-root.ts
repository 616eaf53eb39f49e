/** Finds the enclosing git repository by walking up from a directory; no git process is started. */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export interface GitLocation {
  /** The working tree's top directory. */
  root: string;
  /** The git directory: `<root>/.git`, or the one a worktree's `.git` file points at. */
  gitDir: string;
}

export function findGitRoot(start: string): GitLocation | undefined {
  let dir = path.resolve(start);
  for (;;) {
    const dotGit = path.join(dir, ".git");
    if (existsSync(dotGit)) {
      try {
        if (statSync(dotGit).isDirectory()) return { root: dir, gitDir: dotGit };
        const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, "utf8"));
        if (pointer) return { root: dir, gitDir: path.resolve(dir, (pointer[1] as string).trim()) };
      } catch {
        // unreadable: keep walking up
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** A file's text, or undefined when it cannot be read. */
export function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** The `origin` remote's URL as `.git/config` has it (a worktree's config is its main repository's). */
export function originRemoteUrl(gitDir: string): string | undefined {
  // A worktree's git dir holds a `commondir` file pointing at the main one, where the config lives.
  const common = readText(path.join(gitDir, "commondir"))?.trim();
  const config = readText(path.join(common ? path.resolve(gitDir, common) : gitDir, "config"));
  return /\[remote "origin"\][^[]*?url\s*=\s*(\S+)/.exec(config ?? "")?.[1];
}

/**
 * The working tree's changes as one unified diff (/diff, the SDK's session.workspaces.diff): staged and
 * unstaged changes against HEAD (or against nothing, before the first commit; or against a given commit),
 * then each untracked file as a new file. Git runs with what a
 * repository's own configuration could make it execute switched off (fsmonitor, external diff, textconv):
 * looking at a repository must not run its code.
 */
import { createRequire } from "node:module";
import { findGitRoot } from "../../util/git-root.js";

// node:child_process (and the dgram module it brings) is loaded when git runs, not by every run that sets up the
// core (a `-p` run's peak RSS, docs/benchmarks.md); by require, which a script bundle has as well as a module.
const requireBuiltin = createRequire(import.meta.url);

const SAFE = ["-c", "core.fsmonitor=false", "-c", "core.quotePath=false"];
const DIFF = ["--no-color", "--no-ext-diff", "--no-textconv"];
const MAX_UNTRACKED = 200;
const MAX_BUFFER = 32 * 1024 * 1024;

export interface WorkingTreeDiff {
  root: string;
  patch: string;
  files: number;
  added: number;
  removed: number;
}

/** Runs git; exit 1 with output is how `diff --no-index` says "they differ", not a failure. */
export function git(root: string, args: readonly string[], signal?: AbortSignal): Promise<string> {
  const { execFile } = requireBuiltin("node:child_process") as typeof import("node:child_process");
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      [...SAFE, ...args],
      { cwd: root, maxBuffer: MAX_BUFFER, encoding: "utf8", env: { ...process.env, GIT_PAGER: "cat", GIT_OPTIONAL_LOCKS: "0" }, ...(signal ? { signal } : {}) },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        if ((error as { code?: unknown }).code === 1 && stderr === "") return resolve(stdout);
        reject(new Error(stderr.trim() || error.message));
      },
    );
  });
}

async function hasHead(root: string): Promise<boolean> {
  // --quiet: a missing HEAD (before the first commit) is exit 1 with nothing printed, which git() lets through.
  const head = await git(root, ["rev-parse", "--verify", "--quiet", "HEAD"]).catch(() => "");
  return head.trim() !== "";
}

export interface WorkingTreeDiffOptions {
  signal?: AbortSignal;
  /** The commit to compare the working tree with (default HEAD). */
  base?: string;
  /** git's --ignore-all-space. */
  ignoreWhitespace?: boolean;
}

/** undefined when `cwd` is not inside a git repository. */
export async function workingTreeDiff(cwd: string, options: WorkingTreeDiffOptions = {}): Promise<WorkingTreeDiff | undefined> {
  const { signal, base } = options;
  const root = findGitRoot(cwd)?.root;
  if (!root) return undefined;
  const diff = [...DIFF, ...(options.ignoreWhitespace ? ["--ignore-all-space"] : [])];
  const tracked =
    base || (await hasHead(root))
      ? [await git(root, ["diff", ...diff, base ?? "HEAD", "--"], signal)]
      : [await git(root, ["diff", ...diff, "--cached"], signal), await git(root, ["diff", ...diff], signal)];
  const untracked = (await git(root, ["ls-files", "--others", "--exclude-standard", "-z"], signal)).split("\0").filter((name) => name !== "");
  const added: string[] = [];
  for (const name of untracked.slice(0, MAX_UNTRACKED)) added.push(await git(root, ["diff", ...diff, "--no-index", "--", "/dev/null", name], signal));
  const more = untracked.length > MAX_UNTRACKED ? [`# … and ${untracked.length - MAX_UNTRACKED} more untracked files\n`] : [];
  const patch = [...tracked, ...added, ...more].filter((part) => part !== "").join("");
  let plus = 0;
  let minus = 0;
  let files = 0;
  for (const line of patch.split("\n")) {
    if (line.startsWith("diff --git ")) files++;
    else if (line.startsWith("+") && !line.startsWith("+++ ")) plus++;
    else if (line.startsWith("-") && !line.startsWith("--- ")) minus++;
  }
  return { root, patch, files, added: plus, removed: minus };
}

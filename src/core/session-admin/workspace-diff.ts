/**
 * The SDK's session.workspaces.diff: the changed files, each with its unified diff, in one of Copilot's modes.
 * `unstaged`: the working tree against HEAD (staged, unstaged and untracked; git only reads). `branch`: the
 * working tree against where HEAD forked from the default branch (origin's HEAD, else main or master); when
 * git cannot tell, the answer falls back to `unstaged` and says so. `session`: what this session's tools
 * changed, from /rewind's snapshots: each file as it was before the session first changed it, against now
 * (no git needed). Paths are relative to the working directory.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { sameState, SnapshotStore, type FileState } from "../../session/rewind/snapshot-store.js";
import { findGitRoot } from "../../util/git-root.js";
import { unifiedDiff } from "../../tools/resolve-path.js";
import { git, workingTreeDiff } from "./working-tree-diff.js";

export type WorkspaceDiffMode = "unstaged" | "branch" | "session";

export interface WorkspaceFileChange {
  path: string;
  /** Empty when `isTruncated`. */
  diff: string;
  changeType: "added" | "modified" | "deleted" | "renamed";
  oldPath?: string;
  isTruncated?: boolean;
}

export interface WorkspaceDiff {
  requestedMode: WorkspaceDiffMode;
  mode: WorkspaceDiffMode;
  changes: WorkspaceFileChange[];
  baseBranch?: string;
  isFallback: boolean;
}

/** A file's diff longer than this is left out (`isTruncated`), as Copilot's per-file limit does. */
export const MAX_FILE_DIFF_CHARS = 256 * 1024;

/** `root`-relative (git's) to `cwd`-relative, `/`-separated; absolute when no relative path exists. */
function fromCwd(cwd: string, file: string): string {
  const relative = path.relative(cwd, file);
  return path.isAbsolute(relative) ? file : relative.split(path.sep).join("/");
}

function limited(change: WorkspaceFileChange): WorkspaceFileChange {
  return change.diff.length > MAX_FILE_DIFF_CHARS ? { ...change, diff: "", isTruncated: true } : change;
}

/** One git patch (of several files) cut into its files. */
export function splitPatch(patch: string, cwd: string, root: string): WorkspaceFileChange[] {
  const chunks = patch.split(/^(?=diff --git )/m).filter((chunk) => chunk.startsWith("diff --git "));
  return chunks.map((chunk) => {
    const line = (prefix: string) => new RegExp(`^${prefix}(.*)$`, "m").exec(chunk)?.[1];
    const header = (chunk.split("\n")[0] ?? "").slice("diff --git ".length);
    // "a/X b/X": for a file without ---/+++ lines (binary, mode only), the name is the first half.
    const fromHeader = header.slice(2, 2 + (header.length - 5) / 2);
    const plus = line("\\+\\+\\+ b/");
    const minus = line("--- a/");
    const renamedTo = line("rename to ");
    const renamedFrom = line("rename from ");
    const name = renamedTo ?? plus ?? minus ?? fromHeader;
    const changeType = renamedTo ? "renamed" : /^new file mode /m.test(chunk) ? "added" : /^deleted file mode /m.test(chunk) ? "deleted" : "modified";
    const at = (file: string) => fromCwd(cwd, path.join(root, file));
    return limited({ path: at(name), diff: chunk, changeType, ...(renamedTo && renamedFrom ? { oldPath: at(renamedFrom) } : {}) });
  });
}

async function defaultBranch(root: string): Promise<string | undefined> {
  const origin = await git(root, ["symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"]).catch(() => "");
  if (origin.trim() !== "") return origin.trim();
  for (const name of ["main", "master"]) {
    // A missing ref is exit 1 with nothing printed, which git() lets through: the printed hash is the answer.
    if ((await git(root, ["rev-parse", "--verify", "--quiet", `refs/heads/${name}`]).catch(() => "")).trim() !== "") return name;
  }
  return undefined;
}

async function gitChanges(cwd: string, ignoreWhitespace: boolean, base?: string): Promise<WorkspaceFileChange[]> {
  const diff = await workingTreeDiff(cwd, { ignoreWhitespace, ...(base ? { base } : {}) });
  const changes = diff ? splitPatch(diff.patch, cwd, diff.root) : [];
  // git -w still names a file whose changes were all whitespace, with no hunk.
  return ignoreWhitespace ? changes.filter((change) => change.changeType !== "modified" || change.isTruncated || /^@@/m.test(change.diff)) : changes;
}

const isBinary = (content: Buffer) => content.includes(0);

/** What this session's tools changed, from the snapshots /rewind keeps (files changed by hand since included). */
async function sessionChanges(cwd: string, sessionDir: string, ignoreWhitespace: boolean): Promise<WorkspaceFileChange[]> {
  const store = new SnapshotStore(sessionDir);
  const first = new Map<string, FileState>();
  for (const eventId of store.pointIds()) {
    for (const [file, record] of Object.entries(store.readPoint(eventId)?.files ?? {})) if (!first.has(file)) first.set(file, record.before);
  }
  const changes: WorkspaceFileChange[] = [];
  for (const [file, before] of first) {
    const now = store.read(file);
    if (sameState(before, now)) continue;
    // Only files and absences can be shown as text; what was not kept (too large) cannot.
    if ((before.kind !== "file" && before.kind !== "absent") || (now.kind !== "file" && now.kind !== "absent")) continue;
    if (before.kind === "file" && !store.hasContent(before.hash)) continue;
    const old = before.kind === "file" ? store.content(before.hash) : Buffer.alloc(0);
    const current = now.kind === "file" ? readFileSync(file) : Buffer.alloc(0);
    const name = fromCwd(cwd, file);
    const changeType = before.kind === "absent" ? "added" : now.kind === "absent" ? "deleted" : "modified";
    const diff =
      isBinary(old) || isBinary(current)
        ? `Binary files differ: ${name}\n`
        : await unifiedDiff(name, old.toString("utf8"), current.toString("utf8"), { ignoreWhitespace });
    if (ignoreWhitespace && changeType === "modified" && !/^@@/m.test(diff)) continue;
    changes.push(limited({ path: name, diff, changeType }));
  }
  return changes.sort((a, b) => a.path.localeCompare(b.path));
}

export async function workspaceDiff(cwd: string, sessionDir: string, requestedMode: WorkspaceDiffMode, ignoreWhitespace = false): Promise<WorkspaceDiff> {
  if (requestedMode === "session") {
    return { requestedMode, mode: "session", changes: await sessionChanges(cwd, sessionDir, ignoreWhitespace), isFallback: false };
  }
  if (requestedMode === "branch") {
    const root = findGitRoot(cwd)?.root;
    const baseBranch = root ? await defaultBranch(root) : undefined;
    const forkPoint = root && baseBranch ? (await git(root, ["merge-base", baseBranch, "HEAD"]).catch(() => "")).trim() : "";
    if (baseBranch && forkPoint !== "") {
      return { requestedMode, mode: "branch", baseBranch, changes: await gitChanges(cwd, ignoreWhitespace, forkPoint), isFallback: false };
    }
    return { requestedMode, mode: "unstaged", changes: await gitChanges(cwd, ignoreWhitespace), isFallback: true };
  }
  return { requestedMode, mode: "unstaged", changes: await gitChanges(cwd, ignoreWhitespace), isFallback: false };
}

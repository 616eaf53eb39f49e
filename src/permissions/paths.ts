/**
 * The path gate: where tools may read and write without asking. Allowed roots are the working directory
 * (its git root), each --add-dir, the session folder and the temp dir (unless --disallow-temp-dir). Paths are
 * resolved the way the kernel would first, so `..` and a symlink inside the workspace that points outside
 * (even one whose target does not exist yet) are outside.
 */
import { lstatSync, readlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { findGitRoot } from "../util/git-root.js";
import type { PathAccess } from "./shell/analysis-types.js";

export interface CheckedPath {
  /** As written (after ~ expansion). */
  text: string;
  /** Absolute, symlinks resolved; undefined when the path is only known at run time. */
  resolved?: string;
  inside: boolean;
  access: PathAccess;
  /** The glob pattern, when the path was one (its resolution is the directory it searches). */
  glob?: string;
}

/**
 * Resolves a path the way the kernel would: component by component, following symbolic links as they are
 * met (so `link/..` is the parent of the link's target, not of the link), including a link whose target does
 * not exist yet (a write through it lands there). With `followFinal` false the last component is not
 * followed (what `rm link` removes is the link).
 */
export function resolvePhysical(absolute: string, followFinal = true): string {
  const parts = absolute.split(path.sep).filter((part) => part !== "");
  let current = path.parse(absolute).root;
  let hops = 0;
  while (parts.length > 0) {
    const part = parts.shift() as string;
    if (part === ".") continue;
    if (part === "..") {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, part);
    if (!followFinal && parts.length === 0) return next;
    let target: string | undefined;
    try {
      if (lstatSync(next).isSymbolicLink()) target = readlinkSync(next);
    } catch {
      // does not exist (yet): the rest is taken as written
    }
    if (target === undefined) {
      current = next;
      continue;
    }
    if (++hops > 40) return next; // a loop: give up where we are (it cannot be opened anyway)
    parts.unshift(...target.split(path.sep).filter((piece) => piece !== ""));
    current = path.isAbsolute(target) ? path.parse(target).root : current;
  }
  return current;
}

export function isInside(resolved: string, root: string): boolean {
  return resolved === root || resolved.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

export interface PathGateOptions {
  cwd: string;
  addDirs?: readonly string[];
  /** Folders the agent itself owns (the session folder). */
  extraRoots?: readonly string[];
  disallowTempDir?: boolean;
  homeDir?: string;
}

export class PathGate {
  readonly roots: string[];
  private readonly home: string;

  constructor(readonly options: PathGateOptions) {
    this.home = options.homeDir ?? os.homedir();
    const workspace = findGitRoot(options.cwd)?.root ?? options.cwd;
    // The temp dir as the environment defines it (TMPDIR): a hard-coded /tmp as well would let a workspace
    // under /tmp write its neighbours when the user's temp dir is elsewhere.
    const temp = options.disallowTempDir ? [] : [os.tmpdir()];
    const candidates = [workspace, ...(options.addDirs ?? []), ...(options.extraRoots ?? []), ...temp];
    this.roots = [...new Set(candidates.map((root) => resolvePhysical(path.resolve(options.cwd, root))))];
  }

  /** Where a path written in a command or tool call really points, and whether that is inside a root. */
  check(text: string, access: PathAccess, options: { literal?: boolean; base?: string; followFinal?: boolean } = {}): CheckedPath {
    if (options.literal === false) return { text, inside: false, access };
    let expanded = text === "~" || text.startsWith("~/") ? this.home + text.slice(1) : text;
    let glob: string | undefined;
    // For a glob, what it can match lies under its fixed leading directories; a `..` after a wildcard
    // could climb anywhere, so such a glob is not a path the gate can know.
    const globAt = expanded.search(/[*?[]/);
    if (globAt >= 0) {
      if (/(^|\/)\.\.(\/|$)/.test(expanded.slice(globAt))) return { text, inside: false, access };
      glob = expanded;
      expanded = path.dirname(expanded.slice(0, globAt) + "x");
    }
    // Joined without normalising: `link/..` must go through the link before climbing (the kernel does).
    const join = (from: string, to: string) => (path.isAbsolute(to) ? to : `${from}${path.sep}${to}`);
    const base = join(this.options.cwd, options.base ?? ".");
    // A trailing slash, or a glob's directory, always goes through a link.
    const followFinal = (options.followFinal ?? true) || glob !== undefined || text.endsWith("/");
    const resolved = resolvePhysical(join(base, expanded), followFinal);
    return { text, resolved, inside: this.roots.some((root) => isInside(resolved, root)), access, ...(glob ? { glob } : {}) };
  }

  get homeDir(): string {
    return this.home;
  }
}

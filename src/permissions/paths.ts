/**
 * The path gate: where tools may read and write without asking. Allowed roots are the working directory
 * (its git root), each --add-dir, the session folder and the temp dir (unless --disallow-temp-dir). Paths are
 * resolved with realpath first, so `..` and a symlink inside the workspace that points outside are outside.
 */
import { realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { findGitRoot } from "../util/git-root.js";

export interface CheckedPath {
  /** As written (after ~ expansion). */
  text: string;
  /** Absolute, symlinks resolved; undefined when the path is only known at run time. */
  resolved?: string;
  inside: boolean;
  access: "read" | "write";
}

/** realpath of the longest existing prefix, with the rest appended: works for files not created yet. */
export function resolveReal(absolute: string): string {
  let existing = absolute;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = realpathSync(existing);
      return rest.length === 0 ? real : path.join(real, ...rest.reverse());
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return absolute;
      rest.push(path.basename(existing));
      existing = parent;
    }
  }
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
    const temp = options.disallowTempDir ? [] : [os.tmpdir(), "/tmp"];
    const candidates = [workspace, ...(options.addDirs ?? []), ...(options.extraRoots ?? []), ...temp];
    this.roots = [...new Set(candidates.map((root) => resolveReal(path.resolve(options.cwd, root))))];
  }

  /** Where a path written in a command or tool call really points, and whether that is inside a root. */
  check(text: string, access: "read" | "write", literal = true, base = this.options.cwd): CheckedPath {
    if (!literal) return { text, inside: false, access };
    let expanded = text === "~" || text.startsWith("~/") ? this.home + text.slice(1) : text;
    // For a glob, what it can match lies under its fixed leading directories.
    const globAt = expanded.search(/[*?[]/);
    if (globAt >= 0) expanded = path.dirname(expanded.slice(0, globAt) + "x");
    const resolved = resolveReal(path.resolve(base, expanded));
    return { text, resolved, inside: this.roots.some((root) => isInside(resolved, root)), access };
  }

  get homeDir(): string {
    return this.home;
  }
}

// Lists files under a root the way git sees them: .gitignore files (the root's, nested ones, and those
// between the enclosing git root and the search root) and .git/info/exclude are honoured, .git is skipped,
// and ignored directories are pruned rather than walked.
import { readdir, readFile, stat } from "../util/promised-fs.js";
import path from "node:path";
import ignore from "ignore";
import type { Ignore } from "ignore";
import { findGitRoot } from "../util/git-root.js";

export const DEFAULT_MAX_FILES = 100_000;

/** Thrown by walkFiles when its signal fires. */
export class WalkAbortedError extends Error {
  constructor() {
    super("The file walk was aborted.");
    this.name = "AbortError";
  }
}

const caseInsensitiveFs = process.platform === "darwin" || process.platform === "win32";

function toPosix(p: string): string {
  return path.sep === "/" ? p : p.split(path.sep).join("/");
}

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

async function readIfExists(p: string): Promise<string | null> {
  try {
    return await readFile(p, "utf8");
  } catch {
    return null;
  }
}

/**
 * Decides whether a path is ignored. Rules come from the .gitignore of every directory from the base
 * (the git root, or the search root outside a repository) down to the path; deeper files take
 * precedence, and within one file the last matching rule wins, negations included.
 */
export class IgnoreChecker {
  private readonly layers = new Map<string, Promise<Ignore | null>>();

  private constructor(
    /** The directory whose rules are the shallowest that apply. */
    readonly base: string,
    private readonly gitDir: string | null,
  ) {}

  static async create(root: string): Promise<IgnoreChecker> {
    const abs = path.resolve(root);
    const git = findGitRoot(abs);
    if (!git) return new IgnoreChecker(abs, null);
    const gitRoot = git.root;
    const checker = new IgnoreChecker(gitRoot, git.gitDir);
    // A root the repository ignores (say node_modules/pkg) was asked for explicitly: only its own rules apply.
    if (abs !== gitRoot && (await checker.isPathIgnored(abs, true))) return new IgnoreChecker(abs, null);
    return checker;
  }

  private layer(dir: string): Promise<Ignore | null> {
    let cached = this.layers.get(dir);
    if (!cached) {
      cached = this.loadLayer(dir);
      this.layers.set(dir, cached);
    }
    return cached;
  }

  private async loadLayer(dir: string): Promise<Ignore | null> {
    const sources: string[] = [];
    if (dir === this.base && this.gitDir) {
      const exclude = await readIfExists(path.join(this.gitDir, "info", "exclude"));
      if (exclude) sources.push(exclude);
    }
    const gitignore = await readIfExists(path.join(dir, ".gitignore"));
    if (gitignore) sources.push(gitignore);
    if (sources.length === 0) return null;
    const ig = ignore({ ignorecase: caseInsensitiveFs });
    for (const source of sources) ig.add(source);
    return ig;
  }

  /** Whether `abs` is ignored by the rules that apply to it, assuming its parent directories are not. */
  async isIgnored(abs: string, isDir: boolean): Promise<boolean> {
    if (path.basename(abs) === ".git") return true;
    if (!isInside(this.base, abs)) return false;
    const dirs: string[] = [];
    for (let dir = path.dirname(abs); ; dir = path.dirname(dir)) {
      dirs.push(dir);
      if (dir === this.base || dir === path.dirname(dir)) break;
    }
    for (const dir of dirs) {
      const ig = await this.layer(dir);
      if (!ig) continue;
      const rel = toPosix(path.relative(dir, abs)) + (isDir ? "/" : "");
      const verdict = ig.test(rel);
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  }

  /** Whether `abs` or any directory between the base and it is ignored. */
  async isPathIgnored(abs: string, isDir: boolean): Promise<boolean> {
    const target = path.resolve(abs);
    if (!isInside(this.base, target)) return path.basename(target) === ".git";
    const rel = path.relative(this.base, target).split(path.sep);
    let current = this.base;
    for (let i = 0; i < rel.length; i++) {
      current = path.join(current, rel[i] ?? "");
      const last = i === rel.length - 1;
      if (await this.isIgnored(current, last ? isDir : true)) return true;
    }
    return false;
  }
}

export interface WalkOptions {
  signal?: AbortSignal;
  /** Stop after this many files (default 100,000). */
  maxFiles?: number;
  /** Called once when the walk stops because maxFiles was reached. */
  onTruncated?: () => void;
  /** Include entries whose name starts with a dot (default true; `.git` is always skipped). */
  includeHidden?: boolean;
  /** Reuse a checker built for the same tree. */
  checker?: IgnoreChecker;
}

/** Yields the absolute paths of the files under `root` that git would not ignore, in sorted depth-first order. */
export async function* walkFiles(root: string, options: WalkOptions = {}): AsyncGenerator<string, void, undefined> {
  const start = path.resolve(root);
  const checker = options.checker ?? (await IgnoreChecker.create(start));
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
  const includeHidden = options.includeHidden ?? true;
  let count = 0;
  let stopped = false;

  async function* visit(dir: string): AsyncGenerator<string, void, undefined> {
    if (options.signal?.aborted) throw new WalkAbortedError();
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return; // unreadable directory: skip, as ripgrep does
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (stopped) return;
      if (entry.name === ".git") continue;
      if (!includeHidden && entry.name.startsWith(".")) continue;
      const abs = path.join(dir, entry.name);
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        // Symlinked files are listed; symlinked directories are not followed (no cycles).
        isDir = false;
        isFile = await stat(abs).then(
          (s) => s.isFile(),
          () => false,
        );
      }
      if (!isDir && !isFile) continue;
      if (await checker.isIgnored(abs, isDir)) continue;
      if (isDir) {
        yield* visit(abs);
        continue;
      }
      if (count >= maxFiles) {
        stopped = true;
        options.onTruncated?.();
        return;
      }
      count++;
      yield abs;
    }
  }

  yield* visit(start);
}

/** Collects walkFiles into an array, reporting whether the limit cut it short. */
export async function listFiles(root: string, options: WalkOptions = {}): Promise<{ files: string[]; truncated: boolean }> {
  const files: string[] = [];
  let truncated = false;
  for await (const file of walkFiles(root, { ...options, onTruncated: () => (truncated = true) })) files.push(file);
  return { files, truncated };
}

// The `glob` tool: files matching a glob pattern, gitignore honoured, newest first.
import fs from "node:fs";
import type { Dirent } from "node:fs";
import { stat } from "../util/promised-fs.js";
import path from "node:path";
import { z } from "zod";
import { defineTool, ToolError } from "./define-tool.js";
import { lazyParameters } from "./lazy-parameters.js";
import type { IgnoreChecker } from "./file-walker.js";
import { resolveSearchRoots, searchPermission, searchTitle, statOrNull, throwIfAborted, truncateOutput } from "./resolve-path.js";

/** At most this many paths are returned. */
export const GLOB_MAX_RESULTS = 1000;

const parameters = lazyParameters(() =>
  z.object({
    pattern: z.string().describe("Glob pattern matched against paths relative to each search directory, e.g. `**/*.ts`, `src/**/test_*.py`, `*.{json,yaml}`."),
    paths: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .describe("Directory, or list of directories, to search in. Defaults to the working directory."),
  }),
);

type ReaddirCallback = (error: NodeJS.ErrnoException | null, entries?: Dirent[]) => void;

/**
 * A readdir for fast-glob that drops `.git` and gitignored entries, so ignored directories
 * (node_modules, build output) are never descended into.
 */
function ignoringReaddir(checker: IgnoreChecker, shouldStop: () => boolean) {
  return (dir: string, options: unknown, callback: ReaddirCallback): void => {
    const withTypes = typeof options === "object" && options !== null && "withFileTypes" in options;
    if (!withTypes || shouldStop()) {
      if (shouldStop()) {
        callback(null, []);
        return;
      }
      // Not the shape we filter: defer to fs (the results are still filtered afterwards).
      (fs.readdir as unknown as (d: string, o: unknown, cb: ReaddirCallback) => void)(dir, options, callback);
      return;
    }
    fs.readdir(dir, { withFileTypes: true }, (error, dirents) => {
      if (error) {
        callback(error);
        return;
      }
      void Promise.all(dirents.map(async (d) => ((await checker.isIgnored(path.join(dir, d.name), d.isDirectory())) ? null : d))).then(
        (kept) =>
          callback(
            null,
            kept.filter((d): d is Dirent => d !== null),
          ),
        (err: unknown) => callback(err as NodeJS.ErrnoException),
      );
    });
  };
}

/** Characters that make a glob segment a pattern (fast-glob's wildcards, classes, braces, extglobs, escapes). */
const MAGIC = /[*?[\]{}()!+@\\]/;

/**
 * Where a pattern searches: its leading segments without wildcards, resolved against the search directory
 * (`../outside/*` searches ../outside, `/etc/*` searches /etc), and the pattern below it. That directory is
 * what the permission asks for, so a pattern cannot reach past the path gate. A `..` after a wildcard could
 * climb anywhere and is refused.
 */
export function globStart(pattern: string, root: string): { dir: string; rest: string } {
  const segments = pattern.split("/");
  let fixed = segments.findIndex((segment) => MAGIC.test(segment));
  if (fixed < 0) fixed = segments.length - 1;
  const rest = segments.slice(fixed).join("/");
  if (/(^|[/{,(|])\.\.([/},)|]|$)/.test(rest)) {
    throw new ToolError(`The pattern ${pattern} climbs with .. after a wildcard; give the directory to search in paths instead.`, "invalid_pattern");
  }
  const lead = segments.slice(0, fixed).join("/");
  return { dir: path.resolve(root, pattern.startsWith("/") && lead === "" ? "/" : lead), rest };
}

/** The directories a glob searches, one per search root (a refused pattern searches nothing: its roots are asked for). */
export function globDirs(pattern: string, paths: string | string[] | undefined, cwd: string): string[] {
  const dir = (root: string) => {
    try {
      return globStart(pattern, root).dir;
    } catch {
      return root;
    }
  };
  return [...new Set(resolveSearchRoots(paths, cwd).map(dir))];
}

async function globRoot(pattern: string, root: string, signal: AbortSignal, limit: number): Promise<{ files: string[]; capped: boolean }> {
  // fast-glob and the ignore rules load on the first glob, not at start-up: the first request does not need them.
  const [{ default: fg }, { IgnoreChecker }] = await Promise.all([import("fast-glob"), import("./file-walker.js")]);
  const start = globStart(pattern, root);
  // The ignore rules are the search root's; a pattern that leads out of it brings its own directory's.
  const relative = path.relative(root, start.dir);
  const inside = !relative.startsWith("..") && !path.isAbsolute(relative);
  const checker = await IgnoreChecker.create(inside ? root : start.dir);
  const files: string[] = [];
  let capped = false;
  const stop = (): boolean => capped || signal.aborted;
  if (!(await statOrNull(start.dir))?.isDirectory()) return { files, capped };
  const stream = fg.stream(start.rest, {
    cwd: start.dir,
    absolute: true,
    dot: true,
    onlyFiles: true,
    followSymbolicLinks: false,
    unique: true,
    suppressErrors: true,
    ignore: ["**/.git/**"],
    fs: { readdir: ignoringReaddir(checker, stop) as unknown as typeof fs.readdir },
  });
  for await (const entry of stream) {
    if (signal.aborted) break;
    const abs = path.resolve(String(entry));
    if (await checker.isPathIgnored(abs, false)) continue;
    if (files.length >= limit) {
      capped = true;
      break;
    }
    files.push(abs);
  }
  return { files, capped };
}

/** As Copilot's glob (ripgrep's file list) shows a match: `./src/a.ts` under the working directory it searched by default. */
function shownPath(file: string, cwd: string | undefined): string {
  if (cwd === undefined) return file;
  const relative = path.relative(cwd, file);
  return relative.startsWith("..") || path.isAbsolute(relative) ? file : `./${relative}`;
}

export const globTool = defineTool({
  name: "glob",
  description: [
    "Find files whose paths match a glob pattern (fast-glob syntax: `*`, `**`, `?`, `[abc]`, `{a,b}`).",
    "The pattern is matched against paths relative to each search directory, so use `**/` to match at any depth (`**/*.ts`, not `*.ts`, for every TypeScript file).",
    "Files ignored by .gitignore (and the .git directory) are skipped; hidden files are included.",
    `Returns paths, one per line (relative to the working directory as ./path when no paths are given, absolute otherwise), sorted by modification time, newest first. At most ${GLOB_MAX_RESULTS} paths are returned and the output is cut at 20 KB; a note says when.`,
    "To search file contents, use grep instead.",
  ].join("\n"),
  parameters,
  kind: "search",
  readOnly: true,
  title: searchTitle,
  // Asked for where the pattern searches, which may lie above the search roots (`../x/*`) or elsewhere (`/etc/*`).
  permission: (args, ctx) => searchPermission({ pattern: args.pattern, paths: globDirs(args.pattern, args.paths, ctx.cwd) }, ctx.cwd, "Find files matching"),
  async execute(args, ctx) {
    throwIfAborted(ctx.signal, "The file search");
    if (args.pattern.trim() === "") throw new ToolError("pattern is empty; give a glob such as **/*.ts.", "invalid_pattern");
    const roots = resolveSearchRoots(args.paths, ctx.cwd);
    for (const root of roots) {
      const info = await statOrNull(root);
      if (!info) throw new ToolError(`Directory ${root} does not exist.`, "not_found");
      if (!info.isDirectory()) throw new ToolError(`${root} is not a directory; paths must be directories.`, "not_a_directory");
    }
    const found = new Set<string>();
    let capped = false;
    for (const root of roots) {
      if (found.size >= GLOB_MAX_RESULTS) {
        capped = true;
        break;
      }
      const result = await globRoot(args.pattern, root, ctx.signal, GLOB_MAX_RESULTS - found.size);
      throwIfAborted(ctx.signal, "The file search");
      for (const f of result.files) found.add(f);
      if (result.capped) {
        capped = true;
        break;
      }
    }
    if (found.size === 0) return { content: `No files matched ${args.pattern}.`, telemetry: { matches: 0 } };

    const withTimes = await Promise.all(
      [...found].map(async (file) => ({
        file,
        mtime: await stat(file).then(
          (s) => s.mtimeMs,
          () => 0,
        ),
      })),
    );
    withTimes.sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    const listing = withTimes.map((f) => shownPath(f.file, args.paths === undefined ? ctx.cwd : undefined)).join("\n");
    const { text, truncated } = truncateOutput(listing);
    let content = text;
    const notes: string[] = [];
    if (capped) notes.push(`Results capped at ${GLOB_MAX_RESULTS} files; more files match.`);
    if (truncated) notes.push(`Output truncated at 20 KB: showing ${text.split("\n").length} of ${found.size} paths.`);
    if (notes.length > 0) content += `\n\n[${notes.join(" ")} Use a more specific pattern or search a subdirectory.]`;
    return { content, telemetry: { matches: found.size, capped, truncated } };
  },
});

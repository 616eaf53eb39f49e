// Path resolution and small helpers shared by the file and search tools.
import { constants } from "node:fs";
import { access, readHead, stat } from "../util/promised-fs.js";
import type { Stats } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ToolError } from "./define-tool.js";

/** Tool output sent to the model is cut at this many characters. */
export const OUTPUT_LIMIT = 20 * 1024;

/** How many leading bytes are checked for a NUL byte when deciding whether a file is binary. */
export const BINARY_SNIFF_BYTES = 8 * 1024;

/** Resolves a path argument: `~` expands to the home directory, relative paths resolve against cwd. */
export function resolveToolPath(input: string, cwd: string): string {
  let p = input.trim();
  if (p === "~") p = os.homedir();
  else if (p.startsWith("~/") || p.startsWith("~\\")) p = path.join(os.homedir(), p.slice(2));
  return path.resolve(cwd, p);
}

/** Normalises the optional `paths` argument of the search tools to absolute directories (default: cwd). */
export function resolveSearchRoots(paths: string | string[] | undefined, cwd: string): string[] {
  const list = paths === undefined ? [] : Array.isArray(paths) ? paths : [paths];
  const cleaned = list.map((p) => p.trim()).filter((p) => p.length > 0);
  if (cleaned.length === 0) return [path.resolve(cwd)];
  return [...new Set(cleaned.map((p) => resolveToolPath(p, cwd)))];
}

/** The deepest directory containing every given absolute path (used for one permission request). */
export function commonAncestor(paths: string[]): string {
  const first = paths[0];
  if (first === undefined) return path.parse(process.cwd()).root;
  let common = first;
  for (const p of paths.slice(1)) {
    while (common !== path.dirname(common) && p !== common && !p.startsWith(common.endsWith(path.sep) ? common : common + path.sep)) {
      common = path.dirname(common);
    }
  }
  return common;
}

/** fs.stat, or null when the path does not exist. */
export async function statOrNull(p: string): Promise<Stats | null> {
  try {
    return await stat(p);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw error;
  }
}

export async function isExecutable(p: string): Promise<boolean> {
  try {
    await access(p, constants.X_OK);
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}

/** True when the buffer holds a NUL byte in its first 8 KB. */
export function looksBinary(buffer: Uint8Array): boolean {
  const end = Math.min(buffer.length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (buffer[i] === 0) return true;
  return false;
}

/** Reads the first 8 KB of a file and reports whether it is binary. */
export async function isBinaryFile(p: string): Promise<boolean> {
  return looksBinary(await readHead(p, BINARY_SNIFF_BYTES));
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Cuts text to OUTPUT_LIMIT characters, on a line boundary when there is one in the last quarter. */
export function truncateOutput(text: string, limit = OUTPUT_LIMIT): { text: string; truncated: boolean } {
  if (text.length <= limit) return { text, truncated: false };
  let cut = text.lastIndexOf("\n", limit);
  if (cut < limit * 0.75) cut = limit;
  return { text: text.slice(0, cut), truncated: true };
}

/** A unified diff of one file, without the `Index:`/`====` preamble. `diff` loads on first use, not at start-up. */
export async function unifiedDiff(filePath: string, before: string, after: string, options: { ignoreWhitespace?: boolean } = {}): Promise<string> {
  const { createTwoFilesPatch } = await import("diff");
  const patch = createTwoFilesPatch(filePath, filePath, before, after, undefined, undefined, { context: 3, ...options });
  return patch
    .split("\n")
    .filter((line, i) => !(i < 2 && (line.startsWith("Index: ") || /^=+$/.test(line))))
    .join("\n");
}

/** Lines added and removed between two versions of a file. */
export async function countLineChanges(before: string, after: string): Promise<{ linesAdded: number; linesRemoved: number }> {
  const { diffLines } = await import("diff");
  let linesAdded = 0;
  let linesRemoved = 0;
  for (const change of diffLines(before, after)) {
    if (change.added) linesAdded += change.count;
    else if (change.removed) linesRemoved += change.count;
  }
  return { linesAdded, linesRemoved };
}

/** Throws the ToolError a cancelled tool reports. */
export function throwIfAborted(signal: AbortSignal, what: string): void {
  if (signal.aborted) throw new ToolError(`${what} was cancelled.`, "aborted");
}

/** The UI title of a search tool call: the pattern, and where when paths were given. */
export function searchTitle(args: { pattern: string; paths?: string | string[] }): string {
  const where = args.paths === undefined ? "" : Array.isArray(args.paths) ? args.paths.join(", ") : args.paths;
  return where ? `${args.pattern} in ${where}` : args.pattern;
}

/** A search reads below the common ancestor of its roots. */
export function searchPermission(
  args: { pattern: string; paths?: string | string[] },
  cwd: string,
  verb: string,
): { kind: "read"; path: string; intention: string } {
  const target = commonAncestor(resolveSearchRoots(args.paths, cwd));
  return { kind: "read", path: target, intention: `${verb} ${args.pattern} in ${target}` };
}

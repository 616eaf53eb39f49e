// The `grep` tool: regex search over file contents with ripgrep when it is on PATH, else a JS fallback
// that produces the same output formats.
import { z } from "zod";
import { defineTool, ToolError } from "./define-tool.js";
import { lazyParameters } from "./lazy-parameters.js";
import { findRipgrep, runRipgrep } from "./grep-ripgrep.js";
import { resolveSearchRoots, searchPermission, searchTitle, statOrNull, throwIfAborted, truncateOutput } from "./resolve-path.js";

export type GrepOutputMode = "content" | "files_with_matches" | "count";

/** A search with its arguments normalised, handed to a backend. */
export interface GrepQuery {
  pattern: string;
  /** Absolute files or directories to search. */
  roots: string[];
  cwd: string;
  mode: GrepOutputMode;
  glob?: string;
  type?: string;
  ignoreCase: boolean;
  before: number;
  after: number;
  lineNumbers: boolean;
  multiline: boolean;
  /** Stop collecting output beyond this many characters. */
  maxOutputChars: number;
}

/** What a backend found: output lines in the shared format. */
export interface GrepBackendResult {
  lines: string[];
  /** The backend stopped early (too much output or too many files). */
  incomplete: boolean;
  /** Non-fatal problems worth telling the model (unreadable files...). */
  warning?: string;
}

/** Backends stop collecting output beyond this many characters. */
export const GREP_COLLECT_LIMIT = 1024 * 1024;
/** Output lines longer than this are cut. */
export const GREP_MAX_LINE = 2000;

const parameters = lazyParameters(() => {
  const count = z.number().int().min(0);
  return z.object({
    pattern: z.string().describe("Regular expression to search for in file contents (ripgrep / Rust regex syntax, e.g. `function\\s+\\w+`)."),
    paths: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .describe("File or directory, or a list of them, to search. Defaults to the working directory."),
    output_mode: z
      .enum(["content", "files_with_matches", "count"])
      .optional()
      .describe(
        "`files_with_matches` (default): paths of matching files. `content`: matching lines as `path:line:text`. `count`: `path:N` match counts per file.",
      ),
    glob: z.string().optional().describe("Only search files whose path matches this glob, e.g. `*.ts`, `*.{ts,tsx}`, `src/**/*.py`. Prefix with ! to exclude."),
    type: z
      .string()
      .optional()
      .describe("Only search files of this type, e.g. `ts`, `js`, `py`, `rust`, `go`, `java`, `md`. More efficient than glob for standard types."),
    "-i": z.boolean().optional().describe("Case-insensitive search."),
    "-A": count.optional().describe("Lines of context to show after each match (content mode only)."),
    "-B": count.optional().describe("Lines of context to show before each match (content mode only)."),
    "-C": count.optional().describe("Lines of context to show before and after each match (content mode only)."),
    "-n": z.boolean().optional().describe("Show line numbers in content mode (default true)."),
    head_limit: z.number().int().min(1).optional().describe("Return only the first N lines of output (N files, N count entries, or N content lines)."),
    multiline: z.boolean().optional().describe("Let the pattern span lines; `.` then also matches newlines. Default false."),
  });
});

type GrepArgs = z.infer<typeof parameters>;

/** Which backend a search uses: ripgrep on PATH unless AGENT_DISABLE_RIPGREP=1. */
export async function grepBackend(): Promise<{ name: "ripgrep"; path: string } | { name: "fallback" }> {
  if (process.env.AGENT_DISABLE_RIPGREP === "1") return { name: "fallback" };
  const rg = await findRipgrep();
  return rg ? { name: "ripgrep", path: rg } : { name: "fallback" };
}

function toQuery(args: GrepArgs, cwd: string): GrepQuery {
  const mode = args.output_mode ?? "files_with_matches";
  const content = mode === "content";
  return {
    pattern: args.pattern,
    roots: resolveSearchRoots(args.paths, cwd),
    cwd,
    mode,
    ...(args.glob?.trim() ? { glob: args.glob.trim() } : {}),
    ...(args.type?.trim() ? { type: args.type.trim() } : {}),
    ignoreCase: args["-i"] ?? false,
    before: content ? (args["-B"] ?? args["-C"] ?? 0) : 0,
    after: content ? (args["-A"] ?? args["-C"] ?? 0) : 0,
    lineNumbers: args["-n"] ?? true,
    multiline: args.multiline ?? false,
    maxOutputChars: GREP_COLLECT_LIMIT,
  };
}

function cleanLine(line: string): string {
  const trimmed = line.endsWith("\r") ? line.slice(0, -1) : line;
  if (trimmed.length <= GREP_MAX_LINE) return trimmed;
  return `${trimmed.slice(0, GREP_MAX_LINE)}… [line cut at ${GREP_MAX_LINE} characters]`;
}

/** Applies head_limit and the 20 KB limit, and adds the notes the model needs. */
export function formatGrepOutput(result: GrepBackendResult, headLimit: number | undefined): string {
  let lines = result.lines.map(cleanLine);
  if (lines.length === 0) return result.warning ? `No matches found\n\n[${result.warning}]` : "No matches found";
  const notes: string[] = [];
  if (headLimit !== undefined && lines.length > headLimit) {
    notes.push(`Showing the first ${headLimit} lines (head_limit); there are more.`);
    lines = lines.slice(0, headLimit);
  }
  const { text, truncated } = truncateOutput(lines.join("\n"));
  if (truncated) {
    const shown = text.split("\n").length;
    notes.push(`Output truncated at 20 KB after ${shown} lines. Narrow the search with paths, glob, type or head_limit.`);
  } else if (result.incomplete) {
    notes.push("The search stopped early because there were too many results or files; results are incomplete. Narrow the search.");
  }
  if (result.warning) notes.push(result.warning);
  return notes.length > 0 ? `${text}\n\n${notes.map((n) => `[${n}]`).join("\n")}` : text;
}

export const grepTool = defineTool({
  name: "grep",
  description: [
    "Search file contents with a regular expression (ripgrep semantics).",
    "Searches the working directory by default, skipping files ignored by .gitignore, the .git directory and binary files.",
    "output_mode: `files_with_matches` (default) lists matching files; `content` shows matching lines as `path:line:text` (context lines as `path-line-text`, groups separated by `--`); `count` shows `path:N`.",
    "Filter files with glob (e.g. `*.{ts,tsx}`) or type (e.g. `ts`, `py`). -i ignores case; -A/-B/-C add context lines in content mode; head_limit keeps the first N output lines; multiline lets a match span lines.",
    "Paths in the output are absolute. Output is truncated at 20 KB with a note.",
  ].join("\n"),
  parameters,
  kind: "search",
  readOnly: true,
  title: searchTitle,
  permission: (args, ctx) => searchPermission(args, ctx.cwd, "Search for"),
  async execute(args, ctx) {
    throwIfAborted(ctx.signal, "The search");
    if (args.pattern === "") throw new ToolError("pattern is empty; give a regular expression to search for.", "invalid_pattern");
    if (!args.multiline && /(^|[^\\])(\\\\)*\\n/.test(args.pattern)) {
      throw new ToolError("The pattern matches a line break (\\n), which only works with multiline: true.", "needs_multiline");
    }
    const query = toQuery(args, ctx.cwd);
    for (const root of query.roots) {
      if (!(await statOrNull(root))) throw new ToolError(`Path ${root} does not exist.`, "not_found");
    }
    const backend = await grepBackend();
    const result =
      backend.name === "ripgrep"
        ? await runRipgrep(backend.path, query, ctx.signal)
        : await (await import("./grep-fallback.js")).runFallbackGrep(query, ctx.signal);
    throwIfAborted(ctx.signal, "The search");
    return {
      content: formatGrepOutput(result, args.head_limit),
      telemetry: { backend: backend.name, lines: result.lines.length, incomplete: result.incomplete },
    };
  },
});

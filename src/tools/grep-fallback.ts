// The JavaScript backend of the grep tool, used when ripgrep is not on PATH. It walks files with the
// gitignore-aware walker, skips binary files, and prints ripgrep's --no-heading formats.
import { readFile, stat } from "../util/promised-fs.js";
import path from "node:path";
import ignore from "ignore";
import { ToolError } from "./define-tool.js";
import { IgnoreChecker, WalkAbortedError, walkFiles } from "./file-walker.js";
import type { GrepBackendResult, GrepQuery } from "./grep.js";
import { looksBinary } from "./resolve-path.js";
import { expandBraces } from "../util/brace-expansion.js";

/** File types understood by `type`, as basename globs (a subset of ripgrep's --type-list). */
export const FILE_TYPES: Record<string, string[]> = {
  ts: ["*.ts", "*.tsx", "*.mts", "*.cts"],
  js: ["*.js", "*.jsx", "*.mjs", "*.cjs", "*.vue"],
  py: ["*.py", "*.pyi"],
  rust: ["*.rs"],
  go: ["*.go"],
  java: ["*.java", "*.jsp", "*.properties"],
  kotlin: ["*.kt", "*.kts"],
  scala: ["*.scala", "*.sbt"],
  swift: ["*.swift"],
  c: ["*.c", "*.h", "*.H"],
  cpp: ["*.cpp", "*.cc", "*.cxx", "*.c++", "*.hpp", "*.hh", "*.hxx", "*.h", "*.inl"],
  cs: ["*.cs"],
  ruby: ["*.rb", "*.gemspec", "Gemfile", "Rakefile"],
  php: ["*.php", "*.php3", "*.php4", "*.php5", "*.phtml"],
  lua: ["*.lua"],
  dart: ["*.dart"],
  sh: ["*.sh", "*.bash", "*.zsh", ".bashrc", ".zshrc", ".profile"],
  html: ["*.html", "*.htm", "*.xhtml"],
  css: ["*.css", "*.scss", "*.sass", "*.less"],
  json: ["*.json", "*.jsonl", "*.json5"],
  yaml: ["*.yaml", "*.yml"],
  toml: ["*.toml", "Cargo.lock"],
  xml: ["*.xml", "*.xsd", "*.xsl", "*.svg"],
  md: ["*.md", "*.markdown", "*.mdx", "*.mkd"],
  sql: ["*.sql"],
  txt: ["*.txt"],
  svelte: ["*.svelte"],
  vue: ["*.vue"],
  elixir: ["*.ex", "*.exs", "*.eex", "*.heex"],
  haskell: ["*.hs", "*.lhs"],
  make: ["Makefile", "makefile", "GNUmakefile", "*.mk", "*.mak"],
  docker: ["Dockerfile", "*.dockerfile", "Dockerfile.*"],
};
const TYPE_ALIASES: Record<string, string> = {
  typescript: "ts",
  javascript: "js",
  python: "py",
  rs: "rust",
  golang: "go",
  kt: "kotlin",
  rb: "ruby",
  "c++": "cpp",
  csharp: "cs",
  shell: "sh",
  bash: "sh",
  yml: "yaml",
  markdown: "md",
  scss: "css",
  dockerfile: "docker",
};

const MAX_FILE_BYTES = 50 * 1024 * 1024;

/** A predicate over root-relative POSIX paths for a ripgrep-style --glob (gitignore syntax, `!` excludes). */
export function globFilter(glob: string): (rel: string) => boolean {
  const negated = glob.startsWith("!");
  const ig = ignore().add(expandBraces(negated ? glob.slice(1) : glob));
  return (rel) => ig.ignores(rel) !== negated;
}

function typeFilter(type: string): (rel: string) => boolean {
  const key = TYPE_ALIASES[type.toLowerCase()] ?? type.toLowerCase();
  const globs = FILE_TYPES[key];
  if (!globs) {
    throw new ToolError(`Unknown file type "${type}". Known types: ${Object.keys(FILE_TYPES).join(", ")}. Use glob (e.g. "*.ext") for others.`, "unknown_type");
  }
  const ig = ignore({ ignorecase: false }).add(globs);
  return (rel) => ig.ignores(path.posix.basename(rel));
}

function compile(query: GrepQuery): RegExp {
  const flags = (query.ignoreCase ? "i" : "") + (query.multiline ? "gms" : "");
  try {
    return new RegExp(query.pattern, flags);
  } catch (error) {
    throw new ToolError(`Invalid regular expression ${JSON.stringify(query.pattern)}: ${(error as Error).message}`, "invalid_regex");
  }
}

/** Indices (0-based) of the lines a match touches. */
function matchingLines(text: string, lines: string[], regex: RegExp, multiline: boolean): number[] {
  if (!multiline) {
    const hits: number[] = [];
    lines.forEach((line, i) => {
      if (regex.test(line)) hits.push(i);
    });
    return hits;
  }
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  const lineAt = (pos: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const hit = new Set<number>();
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
    const first = lineAt(m.index);
    const last = lineAt(m.index + Math.max(0, m[0].length - 1));
    for (let i = first; i <= last && i < lines.length; i++) hit.add(i);
    if (m[0].length === 0) regex.lastIndex++;
  }
  return [...hit].sort((a, b) => a - b);
}

/** Searches one file, appending its output lines; unreadable, huge and binary files are skipped. */
async function searchFile(file: string, query: GrepQuery, regex: RegExp, out: string[], state: { printed: boolean }): Promise<void> {
  let buffer: Buffer;
  try {
    if ((await stat(file)).size > MAX_FILE_BYTES) return;
    buffer = await readFile(file);
  } catch {
    return;
  }
  if (looksBinary(buffer)) return;
  // Normalise CRLF so `$` and the printed text behave the same on Windows-style files.
  const text = buffer.toString("utf8").replace(/\r\n/g, "\n");
  const lines = text.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const hits = matchingLines(text, lines, regex, query.multiline);
  if (hits.length === 0) return;
  if (query.mode === "files_with_matches") {
    out.push(file);
    return;
  }
  if (query.mode === "count") {
    out.push(`${file}:${hits.length}`);
    return;
  }
  const hitSet = new Set(hits);
  const useContext = query.before > 0 || query.after > 0;
  let previous = -2;
  for (const hitLine of hits) {
    const from = Math.max(0, hitLine - query.before, previous + 1);
    const to = Math.min(lines.length - 1, hitLine + query.after);
    if (useContext && from > previous + 1 && state.printed) out.push("--");
    for (let i = from; i <= to; i++) {
      const sep = hitSet.has(i) ? ":" : "-";
      out.push(query.lineNumbers ? `${file}${sep}${i + 1}${sep}${lines[i]}` : `${file}${sep}${lines[i]}`);
      state.printed = true;
    }
    previous = Math.max(previous, to);
  }
}

async function* candidates(query: GrepQuery, signal: AbortSignal, onTruncated: () => void): AsyncGenerator<string, void, undefined> {
  const byGlob = query.glob ? globFilter(query.glob) : null;
  const byType = query.type ? typeFilter(query.type) : null;
  for (const root of query.roots) {
    const info = await stat(root).catch(() => null);
    if (!info) continue;
    if (info.isFile()) {
      yield root; // files named explicitly are searched whatever the filters say, as with ripgrep
      continue;
    }
    if (!info.isDirectory()) continue;
    const checker = await IgnoreChecker.create(root);
    for await (const file of walkFiles(root, { signal, checker, onTruncated })) {
      const rel = path.relative(root, file).split(path.sep).join("/");
      if (byGlob && !byGlob(rel)) continue;
      if (byType && !byType(rel)) continue;
      yield file;
    }
  }
}

export async function runFallbackGrep(query: GrepQuery, signal: AbortSignal): Promise<GrepBackendResult> {
  const regex = compile(query);
  const out: string[] = [];
  const state = { printed: false };
  let incomplete = false;
  let size = 0;
  try {
    for await (const file of candidates(query, signal, () => (incomplete = true))) {
      if (signal.aborted) throw new WalkAbortedError();
      const before = out.length;
      await searchFile(file, query, regex, out, state);
      for (let i = before; i < out.length; i++) size += (out[i]?.length ?? 0) + 1;
      if (size > query.maxOutputChars) {
        incomplete = true;
        break;
      }
    }
  } catch (error) {
    if (error instanceof WalkAbortedError) throw new ToolError("The search was cancelled.", "aborted");
    throw error;
  }
  return { lines: out, incomplete };
}

export { expandBraces };

// The ripgrep backend of the grep tool: runs `rg` from PATH, killed when the signal fires.
import path from "node:path";
import { ToolError } from "./define-tool.js";
import type { GrepBackendResult, GrepQuery } from "./grep.js";
import { isExecutable } from "./resolve-path.js";

let located: Promise<string | null> | undefined;

/** The path of `rg` on PATH, looked up once and cached. */
export function findRipgrep(): Promise<string | null> {
  located ??= (async () => {
    const names = process.platform === "win32" ? ["rg.exe", "rg.cmd"] : ["rg"];
    for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
      if (!dir) continue;
      for (const name of names) {
        const candidate = path.join(dir, name);
        if (await isExecutable(candidate)) return candidate;
      }
    }
    return null;
  })();
  return located;
}

/** The rg command line for a query; output matches the fallback's formats. */
export function ripgrepArgs(query: GrepQuery): string[] {
  const args = ["--no-config", "--no-heading", "--with-filename", "--color=never", "--hidden", "--no-require-git", "--sort=path", "--glob=!.git"];
  if (query.ignoreCase) args.push("--ignore-case");
  if (query.multiline) args.push("--multiline", "--multiline-dotall");
  if (query.glob) args.push(`--glob=${query.glob}`);
  if (query.type) args.push(`--type=${query.type}`);
  if (query.mode === "files_with_matches") args.push("--files-with-matches");
  else if (query.mode === "count") args.push("--count");
  else {
    args.push(query.lineNumbers ? "--line-number" : "--no-line-number");
    if (query.before > 0) args.push(`--before-context=${query.before}`);
    if (query.after > 0) args.push(`--after-context=${query.after}`);
  }
  args.push("--regexp", query.pattern, "--", ...query.roots);
  return args;
}

/** Output on stderr kept for the message; past it rg is stopped (its errors are not worth more). */
const STDERR_LIMIT = 1024 * 1024;

let execaModule: Promise<typeof import("execa")> | undefined;

/**
 * Runs rg (through execa, loaded on the first search). Exit 1 means no matches; exit 2 without output is an
 * error reported with rg's stderr. Output past `maxOutputChars` stops rg and keeps the complete lines.
 */
export async function runRipgrep(rgPath: string, query: GrepQuery, signal: AbortSignal): Promise<GrepBackendResult> {
  if (signal.aborted) throw new ToolError("The search was cancelled.", "aborted");
  const { execa } = await (execaModule ??= import("execa"));
  const result = await execa(rgPath, ripgrepArgs(query), {
    cwd: query.cwd,
    stdin: "ignore",
    cancelSignal: signal,
    maxBuffer: { stdout: query.maxOutputChars, stderr: STDERR_LIMIT },
    reject: false,
    stripFinalNewline: false,
    windowsHide: true,
  });
  if (result.isCanceled || signal.aborted) throw new ToolError("The search was cancelled.", "aborted");
  const stdout = result.stdout;
  const overflow = result.isMaxBuffer && stdout.length >= query.maxOutputChars;
  if (result.exitCode === undefined && !overflow && !result.isMaxBuffer) {
    throw new ToolError(`Could not run ripgrep (${rgPath}): ${result.originalMessage || result.shortMessage}`, "ripgrep_failed");
  }
  let lines = stdout.split("\n");
  if (overflow)
    lines = lines.slice(0, -1); // the last line may be partial
  else if (lines[lines.length - 1] === "") lines.pop();
  if (overflow) return { lines, incomplete: true };
  const code = result.exitCode;
  if (code === 0) return { lines, incomplete: false };
  if (code === 1 && stdout === "") return { lines: [], incomplete: false };
  const message = result.stderr.trim() || `ripgrep exited with code ${code}`;
  if (stdout === "") throw new ToolError(`grep failed: ${message}`, "ripgrep_error");
  const firstLines = message.split("\n").slice(0, 5).join("; ");
  return { lines, incomplete: false, warning: `Some files could not be searched: ${firstLines}` };
}

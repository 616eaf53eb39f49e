// The ripgrep backend of the grep tool: runs `rg` from PATH, killed when the signal fires.
import { spawn } from "node:child_process";
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
  const args = [
    "--no-config",
    "--no-heading",
    "--with-filename",
    "--color=never",
    "--hidden",
    "--no-require-git",
    "--sort=path",
    "--glob=!.git",
  ];
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

/** Runs rg. Exit 1 means no matches; exit 2 without output is an error reported with rg's stderr. */
export function runRipgrep(rgPath: string, query: GrepQuery, signal: AbortSignal): Promise<GrepBackendResult> {
  if (signal.aborted) return Promise.reject(new ToolError("The search was cancelled.", "aborted"));
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, ripgrepArgs(query), { cwd: query.cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let overflow = false;
    let settled = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      fn();
    };
    const onAbort = (): void => {
      child.kill("SIGTERM");
      finish(() => reject(new ToolError("The search was cancelled.", "aborted")));
    };
    signal.addEventListener("abort", onAbort, { once: true });

    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      if (overflow) return;
      stdout += chunk;
      if (stdout.length > query.maxOutputChars) {
        overflow = true;
        child.kill("SIGTERM");
      }
    });
    child.stderr.on("data", (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk;
    });
    child.on("error", (error) => finish(() => reject(new ToolError(`Could not run ripgrep (${rgPath}): ${error.message}`, "ripgrep_failed"))));
    child.on("close", (code) => {
      finish(() => {
        let lines = stdout.split("\n");
        if (overflow) lines = lines.slice(0, -1); // the last line may be partial
        else if (lines[lines.length - 1] === "") lines.pop();
        if (overflow) return resolve({ lines, incomplete: true });
        if (code === 0) return resolve({ lines, incomplete: false });
        if (code === 1 && stdout === "") return resolve({ lines: [], incomplete: false });
        const message = stderr.trim() || `ripgrep exited with code ${code}`;
        if (stdout === "") return reject(new ToolError(`grep failed: ${message}`, "ripgrep_error"));
        const firstLines = message.split("\n").slice(0, 5).join("; ");
        resolve({ lines, incomplete: false, warning: `Some files could not be searched: ${firstLines}` });
      });
    });
  });
}

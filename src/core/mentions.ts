/**
 * `@path` mentions in a prompt: each `@path` that names an existing file or directory becomes an
 * attachment, whatever face the prompt came from (the TUI, `-p`, a client).
 */
import { statSync } from "node:fs";
import path from "node:path";
import type { Attachment } from "../protocol/events/index.js";

function statOrUndefined(file: string): ReturnType<typeof statSync> {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined; // ENOTDIR, ENAMETOOLONG, EACCES: not a path we can attach
  }
}

/**
 * An attachment for each `@path` in the text that exists under `cwd` (a directory gives type "directory").
 * Trailing punctuation (`@a.ts,`) is tried without it too. Paths are kept as typed; duplicates are dropped.
 */
export function attachmentsFor(text: string, cwd: string): Attachment[] {
  const attachments: Attachment[] = [];
  const seen = new Set<string>();
  if (!text.includes("@")) return attachments;
  for (const match of text.matchAll(/(?:^|\s)@(\S+)/g)) {
    const token = match[1] as string;
    const candidates = [token, token.replace(/[.,;:!?)\]}'"`]+$/, "")].filter(
      (candidate, index, list) => candidate !== "" && list.indexOf(candidate) === index,
    );
    for (const candidate of candidates) {
      const stats = statOrUndefined(path.resolve(cwd, candidate));
      if (!stats || (!stats.isFile() && !stats.isDirectory())) continue;
      const file = candidate.length > 1 && candidate.endsWith("/") ? candidate.slice(0, -1) : candidate;
      if (!seen.has(file)) {
        seen.add(file);
        attachments.push({ type: stats.isDirectory() ? "directory" : "file", path: file });
      }
      break;
    }
  }
  return attachments;
}

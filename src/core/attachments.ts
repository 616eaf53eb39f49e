/**
 * Files the user mentioned with @: the model gets Copilot CLI's `<tagged_files>` block (each path and its line
 * count, a directory with its number of entries, a binary file as binary with its size), then each text file's contents in
 * a `<file_contents>` block, so a question about a file needs no `view` round trip first. Contents are bounded:
 * past MAX_FILE_BYTES or MAX_FILE_LINES a file is cut at a line and a note tells the model to read the rest
 * with `view`; past MAX_TOTAL_BYTES for the whole message, further files are listed by path only, with the
 * same note. Images are sent as pictures (user-message.ts), not as text.
 */
import { closeSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import path from "node:path";
import type { Attachment } from "../protocol/events/index.js";

const COUNT_LIMIT = 16 * 1024 * 1024;
/** Like `view`, a file's text is cut at about 20 KB. */
export const MAX_FILE_BYTES = 20 * 1024;
export const MAX_FILE_LINES = 500;
/** All the tagged files' contents in one message. */
export const MAX_TOTAL_BYTES = 60 * 1024;

/** Bytes the way people read them: "812 B", "4.2 KB", "3.0 MB". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

interface FileFacts {
  size: number;
  binary: boolean;
  /** Undefined past COUNT_LIMIT (not counted). */
  lines?: number;
  /** The file's first MAX_FILE_BYTES + 1 bytes (one more tells whether there is more). */
  head: Buffer;
}

/** One pass over the file: binary or not, its lines, and its beginning. Undefined when it cannot be read. */
function readFacts(file: string): FileFacts | undefined {
  let fd: number | undefined;
  try {
    const size = statSync(file).size;
    fd = openSync(file, "r");
    const buffer = Buffer.alloc(64 * 1024);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const head = Buffer.from(buffer.subarray(0, Math.min(read, MAX_FILE_BYTES + 1)));
    // A NUL byte near the start is how git and grep tell binary files too.
    if (buffer.subarray(0, Math.min(read, 8000)).includes(0)) return { size, binary: true, head };
    if (size > COUNT_LIMIT) return { size, binary: false, head };
    let lines = 0;
    let last = 0x0a;
    for (let chunk = read, position = 0; chunk > 0; position += chunk, chunk = readSync(fd, buffer, 0, buffer.length, position)) {
      for (let index = 0; index < chunk; index++) if (buffer[index] === 0x0a) lines++;
      last = buffer[chunk - 1] ?? last;
    }
    return { size, binary: false, lines: size === 0 ? 0 : lines + (last === 0x0a ? 0 : 1), head };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The text to send of a file: whole lines within the byte and line limits (a first line longer than that is cut). */
function excerpt(facts: FileFacts, budget: number): { text: string; lines: number; whole: boolean } {
  const limit = Math.min(MAX_FILE_BYTES, budget);
  const whole = facts.size <= limit && (facts.lines ?? Infinity) <= MAX_FILE_LINES;
  if (whole) {
    const text = facts.head.toString("utf8");
    return { text, lines: facts.lines ?? 0, whole };
  }
  // Cut at the last newline inside the limit, so the model never sees half a line (nor half a character).
  const within = facts.head.subarray(0, limit);
  const lastNewline = within.lastIndexOf(0x0a);
  let text = (lastNewline >= 0 ? within.subarray(0, lastNewline + 1) : within).toString("utf8").replace(/\uFFFD$/, "");
  const kept = text.split("\n").slice(0, MAX_FILE_LINES);
  text = kept.join("\n");
  const lines = text.endsWith("\n") || text === "" ? kept.length - 1 : kept.length;
  return { text: text.endsWith("\n") || text === "" ? text : `${text}\n`, lines, whole: false };
}

function describeFacts(facts: FileFacts | undefined): string {
  if (!facts) return "";
  if (facts.binary) return ` (binary, ${formatSize(facts.size)})`;
  return facts.lines === undefined ? "" : ` (${facts.lines} lines)`;
}

/** A directory's entries, counted as Copilot CLI does ("(3 items)"); just "(directory)" when it cannot be read. */
function describeDirectory(dir: string): string {
  try {
    return ` (${readdirSync(dir).length} items)`;
  } catch {
    return " (directory)";
  }
}

export function taggedFilesBlock(attachments: readonly Attachment[], cwd: string): string {
  const listed: string[] = [];
  const contents: string[] = [];
  let budget = MAX_TOTAL_BYTES;
  for (const attachment of attachments) {
    if (attachment.path === undefined) continue;
    const absolute = path.resolve(cwd, attachment.path);
    if (attachment.type === "directory") {
      listed.push(`* ${absolute}${describeDirectory(absolute)}`);
      continue;
    }
    const facts = readFacts(absolute);
    listed.push(`* ${absolute}${describeFacts(facts)}`);
    // A picture goes to the model as an image part; a binary file or one that cannot be read has no text to give.
    if (!facts || facts.binary || attachment.mediaType) continue;
    // What is left of the budget is too little to be worth an excerpt.
    if (budget < 1024) {
      contents.push(
        `The contents of ${absolute} are not included (the tagged files' contents are limited to ${formatSize(MAX_TOTAL_BYTES)}): read it with the view tool.`,
      );
      continue;
    }
    const part = excerpt(facts, budget);
    budget -= Buffer.byteLength(part.text);
    const text = part.text === "" || part.text.endsWith("\n") ? part.text : `${part.text}\n`;
    if (part.whole) {
      contents.push(`<file_contents path="${absolute}">\n${text}</file_contents>`);
      continue;
    }
    const total = facts.lines === undefined ? `${formatSize(facts.size)}` : `${facts.lines} lines`;
    contents.push(
      `<file_contents path="${absolute}" shown_lines="1-${part.lines}" total="${total}">\n${text}</file_contents>\n` +
        `Only lines 1-${part.lines} of ${absolute} (${total}) are above: read the rest with the view tool (view_range) when you need it.`,
    );
  }
  if (listed.length === 0) return "";
  const list = `<tagged_files>\n${listed.join("\n")}\n</tagged_files>`;
  return contents.length === 0 ? list : `${list}\n\n${contents.join("\n\n")}`;
}

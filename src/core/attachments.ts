/**
 * Files the user mentioned with @: the model gets Copilot CLI's `<tagged_files>` block with each path and
 * its line count, and reads what it needs with `view`. A binary file has no lines worth counting: it is
 * described as binary, with its size.
 */
import { openSync, readSync, closeSync, statSync } from "node:fs";
import path from "node:path";
import type { Attachment } from "../protocol/events/index.js";

const COUNT_LIMIT = 16 * 1024 * 1024;

/** Bytes the way people read them: "812 B", "4.2 KB", "3.0 MB". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** "(13 lines)", "(binary, 4.2 KB)", or "" when the file cannot be read. */
function describeFile(file: string): string {
  let fd: number | undefined;
  try {
    const size = statSync(file).size;
    fd = openSync(file, "r");
    const buffer = Buffer.alloc(64 * 1024);
    // A NUL byte near the start is how git and grep tell binary files too.
    const head = readSync(fd, buffer, 0, buffer.length, 0);
    if (buffer.subarray(0, Math.min(head, 8000)).includes(0)) return ` (binary, ${formatSize(size)})`;
    if (size > COUNT_LIMIT) return "";
    let lines = 0;
    let last = 0x0a;
    for (let read = head, position = 0; read > 0; position += read, read = readSync(fd, buffer, 0, buffer.length, position)) {
      for (let index = 0; index < read; index++) if (buffer[index] === 0x0a) lines++;
      last = buffer[read - 1] ?? last;
    }
    const count = size === 0 ? 0 : lines + (last === 0x0a ? 0 : 1);
    return ` (${count} lines)`;
  } catch {
    return "";
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export function taggedFilesBlock(attachments: readonly Attachment[], cwd: string): string {
  const lines = attachments
    .filter((attachment) => attachment.path !== undefined)
    .map((attachment) => {
      const absolute = path.resolve(cwd, attachment.path as string);
      if (attachment.type === "directory") return `* ${absolute} (directory)`;
      return `* ${absolute}${describeFile(absolute)}`;
    });
  return lines.length === 0 ? "" : `<tagged_files>\n${lines.join("\n")}\n</tagged_files>`;
}

/**
 * Files the user mentioned with @: the model gets Copilot CLI's `<tagged_files>` block with each path and
 * its line count, and reads what it needs with `view`.
 */
import { openSync, readSync, closeSync, statSync } from "node:fs";
import path from "node:path";
import type { Attachment } from "../protocol/events/index.js";

const COUNT_LIMIT = 16 * 1024 * 1024;

function countLines(file: string): number | undefined {
  let fd: number | undefined;
  try {
    const size = statSync(file).size;
    if (size > COUNT_LIMIT) return undefined;
    fd = openSync(file, "r");
    const buffer = Buffer.alloc(64 * 1024);
    let lines = 0;
    let last = 0x0a;
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      for (let index = 0; index < read; index++) if (buffer[index] === 0x0a) lines++;
      last = buffer[read - 1] ?? last;
    }
    return size === 0 ? 0 : lines + (last === 0x0a ? 0 : 1);
  } catch {
    return undefined;
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
      const count = countLines(absolute);
      return `* ${absolute}${count === undefined ? "" : ` (${count} lines)`}`;
    });
  return lines.length === 0 ? "" : `<tagged_files>\n${lines.join("\n")}\n</tagged_files>`;
}

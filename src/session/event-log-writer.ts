/**
 * The single writer of a session's events.jsonl. Each event is appended with one write as it happens, so
 * a crash loses at most the event in flight; the file is fsynced at turn boundaries (on libuv's thread pool:
 * a flush took 1–10 ms of the main thread between a tool's result and the next request) and on close.
 *
 * The log always ends on a whole event before anything is appended: a crash, a full disk or a size limit
 * can leave a torn last line (no newline, not JSON), which is cut when the log is opened (the reader skips
 * it anyway) and cut again at once when this writer's own write fails halfway. A failure says what failed
 * and where (FileSystemFailure), never just the system's code.
 */
import { closeSync, fstatSync, fsync, fsyncSync, ftruncateSync, readSync, writeSync } from "node:fs";
import { fsFailure } from "../util/fs-failure.js";
import { openPrivateFile } from "../util/private-files.js";
import { serializeEventLine } from "./serialize.js";

/** How far back the last line's start is looked for at a time. */
const SCAN_BLOCK = 64 * 1024;

export class EventLogWriter {
  private fd: number | undefined;
  /** Turn-boundary flushes in flight, and a descriptor closed while they were. */
  private syncing = 0;
  private closeAfterSync: number | undefined;
  private written = 0;
  /** Bytes in the file: where a failed write is cut back to. */
  private size = 0;

  constructor(readonly file: string) {
    try {
      // The log is the agent's own file: private, even when an older version created it readable by others.
      this.fd = openPrivateFile(file, "a+", { tighten: true });
      this.size = this.endOnWholeLine(this.fd);
    } catch (error) {
      if (this.fd !== undefined) closeSync(this.fd);
      this.fd = undefined;
      throw fsFailure(error, `Could not open the session log ${file}`);
    }
  }

  /** Cuts a last line that is not JSON (torn by a crash or a failed write); completes a whole one that lacks its newline. */
  private endOnWholeLine(fd: number): number {
    const size = fstatSync(fd).size;
    if (size === 0) return 0;
    const endsWithNewline = readBytes(fd, size - 1, 1)[0] === 0x0a;
    const end = endsWithNewline ? size - 1 : size;
    const start = lineStart(fd, end);
    // As the reader sees it: NUL padding from a crash is not part of a line.
    const line = readBytes(fd, start, end - start)
      .toString("utf8")
      .replace(/\0/g, "")
      .trim();
    if (line !== "" && isJson(line)) {
      if (endsWithNewline) return size;
      writeSync(fd, "\n");
      return size + 1;
    }
    ftruncateSync(fd, start);
    return start;
  }

  get eventsWritten(): number {
    return this.written;
  }

  append(event: unknown): void {
    if (this.fd === undefined) throw new Error(`The event log ${this.file} is closed.`);
    const bytes = Buffer.from(serializeEventLine(event));
    let offset = 0;
    try {
      while (offset < bytes.length) offset += writeSync(this.fd, bytes, offset, bytes.length - offset);
    } catch (error) {
      // Part of the line may be in the file: cut it, so the log still ends on a whole event.
      if (offset > 0) {
        try {
          ftruncateSync(this.fd, this.size);
        } catch {
          // The next open cuts it instead.
        }
      }
      throw fsFailure(error, `Could not write the session log ${this.file}`);
    }
    this.size += bytes.length;
    this.written++;
  }

  /**
   * Flushes to disk at a turn boundary, off the main thread: the events are already written, so the process
   * dying loses nothing; this is for the machine going down. A failure while the log is open goes to
   * `onError`; the process does not exit before the flush returns (it is a pending request), which is when the
   * promise settles (it never rejects).
   */
  sync(onError: (error: Error) => void): Promise<void> {
    const fd = this.fd;
    if (fd === undefined) return Promise.resolve();
    this.syncing++;
    return new Promise((resolve) =>
      fsync(fd, (error) => {
        this.syncing--;
        if (error && this.fd === fd) onError(fsFailure(error, `Could not save the session log ${this.file}`));
        if (this.syncing === 0 && this.closeAfterSync !== undefined) {
          closeQuietly(this.closeAfterSync);
          this.closeAfterSync = undefined;
        }
        resolve();
      }),
    );
  }

  close(): void {
    const fd = this.fd;
    if (fd === undefined) return;
    this.fd = undefined;
    try {
      fsyncSync(fd);
    } catch {
      // Everything was written; a flush that fails at the very end has nobody left to tell.
    } finally {
      // A turn's flush still in flight has this descriptor: it is closed when that returns, not reused under it.
      if (this.syncing > 0) this.closeAfterSync = fd;
      else closeSync(fd);
    }
  }
}

function readBytes(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const count = readSync(fd, buffer, read, length - read, position + read);
    if (count === 0) break;
    read += count;
  }
  return buffer.subarray(0, read);
}

/** Where the line ending at `end` starts: just after the newline before it, or 0. */
function lineStart(fd: number, end: number): number {
  for (let blockEnd = end; blockEnd > 0; blockEnd -= SCAN_BLOCK) {
    const blockStart = Math.max(0, blockEnd - SCAN_BLOCK);
    const newline = readBytes(fd, blockStart, blockEnd - blockStart).lastIndexOf(0x0a);
    if (newline >= 0) return blockStart + newline + 1;
  }
  return 0;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Closed already: nothing is left to release.
  }
}

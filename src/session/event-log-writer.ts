/**
 * The single writer of a session's events.jsonl. Each event is appended with one write as it happens, so
 * a crash loses at most the event in flight; the file is fsynced at turn boundaries and on close.
 */
import { closeSync, fsyncSync, openSync, readSync, fstatSync, writeSync } from "node:fs";
import { serializeEventLine } from "./serialize.js";

export class EventLogWriter {
  private fd: number | undefined;
  private written = 0;

  constructor(readonly file: string) {
    this.fd = openSync(file, "a+");
    this.repairTail();
  }

  /** A crash can leave a last line without its newline; start on a fresh line so no event is merged into it. */
  private repairTail(): void {
    const fd = this.fd as number;
    const size = fstatSync(fd).size;
    if (size === 0) return;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    if (last[0] !== 0x0a) writeSync(fd, "\n");
  }

  get eventsWritten(): number {
    return this.written;
  }

  append(event: unknown): void {
    if (this.fd === undefined) throw new Error(`The event log ${this.file} is closed.`);
    const bytes = Buffer.from(serializeEventLine(event));
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(this.fd, bytes, offset, bytes.length - offset);
    this.written++;
  }

  /** Flushes to disk (turn boundaries, shutdown). */
  sync(): void {
    if (this.fd !== undefined) fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd === undefined) return;
    try {
      fsyncSync(this.fd);
    } finally {
      closeSync(this.fd);
      this.fd = undefined;
    }
  }
}

/**
 * The last events of a session's log, read without the rest of the file and without the event schemas: what
 * the TUI shows of a resumed session (its last exchange) while the engine loads and reads the whole log.
 * Display only: lines are JSON-parsed but not validated (the engine's reader does that), so this module
 * imports nothing heavy and runs before the engine is loaded.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { SessionEvent } from "../protocol/events/index.js";
import { visibleEvents } from "./rewind/rewind-timeline.js";

/** How much of the log's end is read: enough for a long last exchange. */
const TAIL_BYTES = 256 * 1024;
/** What readEventLogTailWith reads first: most last exchanges fit in it (JSON-parsing all 256 KB costs ~1.5 ms more). */
const SHORT_TAIL_BYTES = 64 * 1024;

export function readEventLogTail(file: string, maxBytes = TAIL_BYTES): SessionEvent[] {
  // What a rewind hid is not shown (when the point it went back to is in the tail too).
  return visibleEvents(readTail(file, maxBytes));
}

/**
 * readEventLogTail's events, read from a shorter tail when that holds an event `wanted` picks (the last
 * exchange's prompt) and no rewind: the events after the last rewind are the longer tail's too, unchanged.
 */
export function readEventLogTailWith(file: string, wanted: (event: SessionEvent) => boolean): SessionEvent[] {
  const short = readTail(file, SHORT_TAIL_BYTES);
  if (short.some(wanted) && !short.some((event) => event.type === "session.snapshot_rewind")) return short;
  return readEventLogTail(file);
}

function readTail(file: string, maxBytes: number): SessionEvent[] {
  const fd = openSync(file, "r");
  let text: string;
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - maxBytes);
    const buffer = Buffer.alloc(size - start);
    let read = 0;
    while (read < buffer.length) {
      const count = readSync(fd, buffer, read, buffer.length - read, start + read);
      if (count === 0) break;
      read += count;
    }
    text = buffer.subarray(0, read).toString("utf8");
    if (start > 0) text = text.slice(text.indexOf("\n") + 1); // the first line is cut
  } finally {
    closeSync(fd);
  }
  const events: SessionEvent[] = [];
  for (const line of text.split("\n")) {
    const trimmed = line.replace(/\0/g, "").trim();
    if (trimmed === "") continue;
    try {
      const value = JSON.parse(trimmed) as Partial<SessionEvent> | null;
      if (value && typeof value === "object" && typeof value.type === "string" && typeof value.data === "object" && !value.ephemeral) {
        events.push(value as SessionEvent);
      }
    } catch {
      // a torn line: skipped, as the engine's reader does
    }
  }
  return events;
}

/**
 * Reads an events.jsonl written by us (or by Copilot CLI). Tolerant by design: NUL padding from a crash is
 * stripped, a truncated or otherwise invalid line is skipped and reported, and an event type this
 * version does not know is counted and ignored (the file keeps it).
 */
import { readFileSync, statSync } from "node:fs";
import { eventCatalog, isKnownEventType, type SessionEvent } from "../protocol/events/index.js";
import { isRecord } from "../util/plain-object.js";

export interface SkippedLine {
  /** 1-based line number in the file. */
  line: number;
  reason: string;
}

export interface EventLog {
  /** Known, valid, persisted events in file order. */
  events: SessionEvent[];
  /** Lines that could not be used. */
  skipped: SkippedLine[];
  /** Events of types this version does not know: kept in the file, ignored here. */
  unknownEvents: number;
  /** The id of the last event in the file (known or not), to continue the parentId chain. */
  lastEventId: string | null;
  fileSizeBytes: number;
}

export function parseEventLog(text: string): Omit<EventLog, "fileSizeBytes"> {
  const events: SessionEvent[] = [];
  const skipped: SkippedLine[] = [];
  let unknownEvents = 0;
  let lastEventId: string | null = null;
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    // NUL bytes only appear as crash padding (JSON escapes a real NUL), so they are removed wherever they are.
    const line = (lines[index] as string).replace(/\0/g, "").trim();
    if (line === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      skipped.push({ line: index + 1, reason: index === lines.length - 1 ? "truncated last line" : "not valid JSON" });
      continue;
    }
    if (!isRecord(value) || typeof value.type !== "string" || typeof value.id !== "string") {
      skipped.push({ line: index + 1, reason: "not an event (no type or id)" });
      continue;
    }
    lastEventId = value.id;
    if (!isKnownEventType(value.type)) {
      unknownEvents++;
      continue;
    }
    const spec = eventCatalog[value.type];
    if (spec.ephemeral) continue; // never written by us; ignore if another writer did
    if (!spec.schema.safeParse(value.data).success) {
      skipped.push({ line: index + 1, reason: `invalid data for ${value.type}` });
      continue;
    }
    events.push(value as unknown as SessionEvent);
  }
  return { events, skipped, unknownEvents, lastEventId };
}

export function readEventLog(file: string): EventLog {
  const text = readFileSync(file, "utf8");
  return { ...parseEventLog(text), fileSizeBytes: statSync(file).size };
}

/**
 * One memory: a small fact the agent learned, as one JSON line of a store file. The shape is meant to be
 * read and edited by a person as much as by the agent:
 *
 *   {"id":"m-3f9a2c1b","subject":"tests","fact":"Run the suite with npm test -- --run.","citations":["package.json:12"],
 *    "scope":"repository","createdAt":"…","confirmedAt":"…","score":1,"source":{"sessionId":"…","toolCallId":"…"}}
 *
 * Reading is tolerant: a line that is not a memory is kept as it is (and reported), never dropped on a rewrite.
 */
import { randomBytes } from "../util/random-id.js";

export type MemoryScope = "repository" | "user";

export interface MemorySource {
  /** The session the fact was learned in (for a consolidation run: the session it read). */
  sessionId: string;
  /** The tool call that stored it, or the event of the transcript it came from. */
  toolCallId?: string;
  eventId?: string;
}

export interface MemoryRecord {
  id: string;
  subject: string;
  fact: string;
  /** Where it can be checked: `path/to/file.ts:42`, or `session:<id>#<event>`. */
  citations: string[];
  scope: MemoryScope;
  createdAt: string;
  /** Last time it was stored again or voted useful. */
  confirmedAt: string;
  /** Starts at 1; a useful vote adds one, a not-useful vote takes one; at 0 the memory is retired. */
  score: number;
  source?: MemorySource;
}

/** A line of a store: a memory, or text that is not one (kept verbatim). */
export type StoreLine = { record: MemoryRecord } | { raw: string; problem: string };

export const INITIAL_SCORE = 1;
export const MAX_SCORE = 10;

export function newMemoryId(taken: (id: string) => boolean): string {
  for (;;) {
    const id = `m-${randomBytes(4).toString("hex")}`;
    if (!taken(id)) return id;
  }
}

const isString = (value: unknown): value is string => typeof value === "string";

const REQUIRED = ["id", "subject", "fact"] as const;
const EPOCH = new Date(0).toISOString();

/**
 * A parsed JSON value as a memory (defaults filled in place, so keys a person added survive a rewrite), or
 * why it is not one.
 */
function asRecord(value: unknown): MemoryRecord | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not a JSON object";
  const raw = value as Record<string, unknown>;
  for (const key of REQUIRED) if (!isString(raw[key]) || raw[key] === "") return `"${key}" must be a non-empty string`;
  raw.citations ??= [];
  if (!Array.isArray(raw.citations) || !raw.citations.every(isString)) return '"citations" must be a list of strings';
  raw.scope ??= "repository";
  if (raw.scope !== "repository" && raw.scope !== "user") return '"scope" must be "repository" or "user"';
  raw.score ??= INITIAL_SCORE;
  if (typeof raw.score !== "number" || !Number.isFinite(raw.score)) return '"score" must be a number';
  if (!isString(raw.createdAt)) raw.createdAt = EPOCH;
  if (!isString(raw.confirmedAt)) raw.confirmedAt = raw.createdAt;
  return raw as unknown as MemoryRecord;
}

/** One line of a store (not blank) as a memory, or why it is not one. */
export function parseRecordLine(line: string): MemoryRecord | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return "not valid JSON";
  }
  return asRecord(value);
}

export function parseStoreText(text: string): StoreLine[] {
  const lines: StoreLine[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const record = parseRecordLine(line);
    lines.push(typeof record === "string" ? { raw: line, problem: record } : { record });
  }
  return lines;
}

export function serializeStore(lines: readonly StoreLine[]): string {
  return lines.map((line) => ("record" in line ? JSON.stringify(line.record) : line.raw)).join("\n") + (lines.length > 0 ? "\n" : "");
}

export function recordsOf(lines: readonly StoreLine[]): MemoryRecord[] {
  const records: MemoryRecord[] = [];
  for (const line of lines) if ("record" in line) records.push(line.record);
  return records;
}

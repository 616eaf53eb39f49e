/**
 * The stores as the board reads them at a session's start: each memory ranked and measured from its line's
 * text, and parsed only when the board shows it. A line in the shape the store writes (its keys in that order,
 * its strings without escapes, the text the board shows without whitespace to squeeze) is matched by one regular
 * expression, which also proves it a memory: valid JSON with every field `parseRecordLine` requires, so it is
 * neither a problem to report nor a different record once parsed. Any other line is parsed then, as
 * `parseStoreText` does. Of a thousand memories this builds the thirty-odd the board shows instead of a
 * thousand objects and their strings (docs/benchmarks.md).
 */
import { boardLineLength, recordLineLength, type BoardCandidates } from "./context-board.js";
import { parseRecordLine, type MemoryRecord } from "./memory-record.js";

/** A JSON string without escapes, captured: plain text (single spaces inside), or any text. */
const TEXT = String.raw`"([^"\\\s\u0000-\u001f]+(?: [^"\\\s\u0000-\u001f]+)*)"`;
const ANY = String.raw`"([^"\\\u0000-\u001f]*)"`;
const SKIPPED = String.raw`"[^"\\\u0000-\u001f]*"`;
const CITATION = String.raw`"[^"\\\s\u0000-\u001f]+(?: [^"\\\s\u0000-\u001f]+)*"`;
/** Sticky, so it matches at a line's start; its match cannot hold a newline, so it ends where the line does. */
const STORE_LINE = new RegExp(
  String.raw`\{"id":"([^"\\\u0000-\u001f]+)","subject":${TEXT},"fact":${TEXT},"citations":\[((?:${CITATION}(?:,${CITATION})*)?)\],` +
    String.raw`"scope":"(repository|user)","createdAt":${SKIPPED},"confirmedAt":${ANY},"score":(-?(?:0|[1-9]\d{0,14})(?:\.\d{1,15})?)` +
    String.raw`(?:,"source":\{"sessionId":${SKIPPED}(?:,"toolCallId":${SKIPPED})?(?:,"eventId":${SKIPPED})?\})?\}(?=\n|$)`,
  "y",
);

export interface ScannedProblem {
  file: string;
  /** The line's number among the file's lines that are not blank, as `MemoryStore.read` counts them. */
  line: number;
  problem: string;
}

/**
 * The memories of one or more store files, in their order, for `boardOf`. Numbers go in typed columns (longer
 * than `count` once grown): their elements never change kind, which would send the optimised scan back to the
 * interpreter.
 */
export class StoreScan implements BoardCandidates {
  count = 0;
  shortestLine = Number.POSITIVE_INFINITY;
  score = new Float64Array(0);
  lineLength = new Int32Array(0);
  readonly confirmedAt: string[] = [];
  readonly problems: ScannedProblem[] = [];
  private readonly texts: string[] = [];
  /** Per memory: the text its line is in (-1: parsed already, in `parsed`), and the line's start and end there. */
  private textOf = new Int32Array(0);
  private start = new Int32Array(0);
  private end = new Int32Array(0);
  private readonly parsed = new Map<number, MemoryRecord>();
  private capacity = 0;

  /** Adds a store file's memories (its text as read) after those added before. */
  add(text: string, file: string): void {
    // Arrays are written by index here, not pushed: Array.prototype.push made the optimised scan bail out.
    const textIndex = this.texts.length;
    this.texts[textIndex] = text;
    // A stored memory takes well over 64 characters: room for all of them, unless a person wrote shorter lines.
    this.reserve(this.count + (text.length >> 6) + 16);
    let number = 0;
    for (let start = 0; start < text.length;) {
      let end = text.indexOf("\n", start);
      if (end < 0) end = text.length;
      STORE_LINE.lastIndex = start;
      const match = text.charCodeAt(start) === 123 ? STORE_LINE.exec(text) : null;
      if (match !== null) {
        number++;
        const confirmedAt = match[6] as string;
        const length = boardLineLength(
          (match[1] as string).length,
          (match[2] as string).length,
          (match[3] as string).length,
          joinedLength(match[4] as string),
          match[5] === "user",
          confirmedAt.length,
        );
        this.push(Number(match[7]), confirmedAt, length, textIndex, start, end);
      } else {
        const line = text.slice(start, end);
        if (line.trim() !== "") {
          number++;
          const record = parseRecordLine(line);
          if (typeof record === "string") this.problems.push({ file, line: number, problem: record });
          else {
            this.parsed.set(this.count, record);
            this.push(record.score, record.confirmedAt, recordLineLength(record), -1, 0, 0);
          }
        }
      }
      start = end + 1;
    }
  }

  record(index: number): MemoryRecord {
    const parsed = this.parsed.get(index);
    if (parsed) return parsed;
    const text = this.texts[this.textOf[index] as number] as string;
    const record = parseRecordLine(text.slice(this.start[index], this.end[index]));
    // The expression admits only memories: a line it matched that does not parse is a fault here, not in the store.
    if (typeof record === "string") throw new Error(`A memory store line was misread (${record})`);
    this.parsed.set(index, record);
    return record;
  }

  private push(score: number, confirmedAt: string, lineLength: number, text: number, start: number, end: number): void {
    const index = this.count;
    if (index === this.capacity) this.reserve(2 * index + 16);
    this.count = index + 1;
    if (lineLength < this.shortestLine) this.shortestLine = Math.max(0, lineLength);
    this.confirmedAt[index] = confirmedAt;
    this.score[index] = score;
    this.lineLength[index] = lineLength;
    this.textOf[index] = text;
    this.start[index] = start;
    this.end[index] = end;
  }

  /** Room for `capacity` memories in every column. */
  private reserve(capacity: number): void {
    if (capacity <= this.capacity) return;
    this.capacity = capacity;
    this.score = widened(this.score, new Float64Array(capacity));
    this.lineLength = widened(this.lineLength, new Int32Array(capacity));
    this.textOf = widened(this.textOf, new Int32Array(capacity));
    this.start = widened(this.start, new Int32Array(capacity));
    this.end = widened(this.end, new Int32Array(capacity));
  }
}

function widened<T extends Float64Array | Int32Array>(column: T, wider: T): T {
  wider.set(column);
  return wider;
}

/** The length of the citations `"a","b"` joined with ", " (a citation holds no quote); -1 for none. */
function joinedLength(citations: string): number {
  if (citations === "") return -1;
  let count = 1;
  for (let at = citations.indexOf('","'); at >= 0; at = citations.indexOf('","', at + 3)) count++;
  // Each citation loses its two quotes; the comma between two becomes ", ".
  return citations.length - count - 1;
}

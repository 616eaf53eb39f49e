/**
 * The context board: the memories a session starts with, put in its system prompt. The most relevant first
 * (src/memory/memory-ranking.ts), until the token budget is spent (four characters a token, as the context gauge
 * counts). The block says that memories may be stale and must be checked against the code, and gives each one's
 * id so the model can vote on it.
 */
import type { MemoryRecord } from "./memory-record.js";
import { RankedOrder } from "./memory-ranking.js";
import { DEFAULT_BOARD_TOKENS } from "./memory-settings.js";

const CHARS_PER_TOKEN = 4;

export const BOARD_NOTE =
  "Memories from earlier sessions (facts the agent or the user chose to keep). They may be stale: verify each against the code before relying on it. When one proves right or wrong, vote_memory with its id confirms or retires it.";

/**
 * Memories as the board ranks and fits them: a column for each field it needs (a store's thousand memories are
 * not a thousand objects, src/memory/store-scan.ts), and a memory's record built only when the board shows it.
 */
export interface BoardCandidates {
  /** How many memories there are (the columns may be longer). */
  readonly count: number;
  /** The shortest line length known; 0 when a length is unknown. */
  readonly shortestLine: number;
  readonly score: ArrayLike<number>;
  readonly confirmedAt: readonly string[];
  /** The length of the memory's board line, its newline included, when known without building it; -1 otherwise. */
  readonly lineLength: ArrayLike<number>;
  record(index: number): MemoryRecord;
}

/** One line, with nothing in it that could close the block or start another line. */
function oneLine(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .replace(/<\/?\s*context_board/gi, (tag) => tag.replace("<", "‹"))
    .trim();
}

const USER_SCOPE = " [you, every repository]";

export function boardLine(record: MemoryRecord): string {
  const where = record.citations.length > 0 ? ` (${oneLine(record.citations.join(", "))})` : "";
  const scope = record.scope === "user" ? USER_SCOPE : "";
  return `- [${record.id}] ${oneLine(record.subject)}: ${oneLine(record.fact)}${where}${scope}; confirmed ${record.confirmedAt.slice(0, 10)}`;
}

/** What every line holds besides its parts: "- [", "] ", ": ", "; confirmed " and the newline. */
const LINE_FRAME = 20;

/**
 * The length of a memory's board line (newline included) from the lengths of its parts, for parts that `oneLine`
 * leaves as they are (PLAIN_TEXT); `citations` is the length of the citations joined, -1 when there are none.
 */
export function boardLineLength(id: number, subject: number, fact: number, citations: number, user: boolean, confirmedAt: number): number {
  return LINE_FRAME + id + subject + fact + (citations >= 0 ? citations + 3 : 0) + (user ? USER_SCOPE.length : 0) + Math.min(10, confirmedAt);
}

/** Text a line shows as it is: no whitespace but single spaces, none at either end (the replaced `<` keeps the length). */
const PLAIN_TEXT = /^\S+(?: \S+)*$/;

/** The length of the record's board line (newline included) when its parts show as they are; -1 otherwise. */
export function recordLineLength(record: MemoryRecord): number {
  if (!PLAIN_TEXT.test(record.subject) || !PLAIN_TEXT.test(record.fact)) return -1;
  let citations = record.citations.length > 0 ? -2 : -1;
  for (const citation of record.citations) {
    if (!PLAIN_TEXT.test(citation)) return -1;
    citations += citation.length + 2;
  }
  return boardLineLength(record.id.length, record.subject.length, record.fact.length, citations, record.scope === "user", record.confirmedAt.length);
}

export interface Board {
  /** The `<context_board>` block; empty when there is nothing to show. */
  text: string;
  /** The memories on it, in order. */
  shown: MemoryRecord[];
  /** Memories left off for the budget. */
  leftOut: number;
  tokens: number;
  budgetTokens: number;
}

/** At least what any line takes: "- [m-…] s: f; confirmed YYYY-MM-DD". */
const SHORTEST_LINE = 40;

export function buildBoard(records: readonly MemoryRecord[], options: { budgetTokens?: number; now?: number } = {}): Board {
  const lineLength = records.map(recordLineLength);
  return boardOf(
    {
      count: records.length,
      shortestLine: lineLength.reduce((shortest, length) => Math.min(shortest, Math.max(0, length)), Number.POSITIVE_INFINITY),
      score: records.map((record) => record.score),
      confirmedAt: records.map((record) => record.confirmedAt),
      lineLength,
      record: (index) => records[index] as MemoryRecord,
    },
    options,
  );
}

export function boardOf(candidates: BoardCandidates, options: { budgetTokens?: number; now?: number } = {}): Board {
  const budgetTokens = options.budgetTokens ?? DEFAULT_BOARD_TOKENS;
  const budgetChars = budgetTokens * CHARS_PER_TOKEN;
  const open = `<context_board>\n${BOARD_NOTE}\n`;
  const close = "</context_board>";
  let used = open.length + close.length;
  // Once less is left than the shortest line takes, nothing more fits (a line of unknown length: SHORTEST_LINE).
  const stop = Math.max(SHORTEST_LINE, candidates.shortestLine);
  const shown: MemoryRecord[] = [];
  const lines: string[] = [];
  const order = new RankedOrder(candidates.count, candidates.score, candidates.confirmedAt, options.now ?? Date.now());
  for (let index = order.next(); index >= 0; index = order.next()) {
    const left = budgetChars - used;
    if (left < stop) break;
    // A line known to be too long is skipped unbuilt (its memory not even parsed, from a store); a shorter one
    // further down may still fit.
    if ((candidates.lineLength[index] as number) > left) continue;
    const record = candidates.record(index);
    const line = `${boardLine(record)}\n`;
    if (line.length > left) continue;
    used += line.length;
    shown.push(record);
    lines.push(line);
  }
  const text = shown.length > 0 ? `${open}${lines.join("")}${close}` : "";
  return { text, shown, leftOut: candidates.count - shown.length, tokens: Math.ceil(text.length / CHARS_PER_TOKEN), budgetTokens };
}

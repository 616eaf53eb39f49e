/**
 * The context board: the memories a session starts with, put in its system prompt. The most relevant first,
 * by score and recency (a memory confirmed lately weighs more than one nobody has confirmed for months),
 * until the token budget is spent (four characters a token, as the context gauge counts). The block says
 * that memories may be stale and must be checked against the code, and gives each one's id so the model can
 * vote on it.
 */
import type { MemoryRecord } from "./memory-record.js";
import { DEFAULT_BOARD_TOKENS } from "./memory-settings.js";

const CHARS_PER_TOKEN = 4;
const DAY_MS = 86_400_000;
/** A confirmation is worth up to two points of score, halving every 30 days. */
const RECENCY_POINTS = 2;
const RECENCY_HALF_LIFE_DAYS = 30;

export const BOARD_NOTE =
  "Memories from earlier sessions (facts the agent or the user chose to keep). They may be stale: verify each against the code before relying on it. When one proves right or wrong, vote_memory with its id confirms or retires it.";

export function relevance(record: MemoryRecord, now: number): number {
  const confirmed = Date.parse(record.confirmedAt);
  const ageDays = Number.isFinite(confirmed) ? Math.max(0, (now - confirmed) / DAY_MS) : Number.POSITIVE_INFINITY;
  return record.score + RECENCY_POINTS * 0.5 ** (ageDays / RECENCY_HALF_LIFE_DAYS);
}

/**
 * Memories in the order the board takes them: most relevant first, newer first on a tie. Positions are sorted
 * against a table of ranks (a stable sort, so the order is the one a sort of the records would give): a board
 * of a thousand memories allocates no object per memory to rank them.
 */
export function rankMemories(records: readonly MemoryRecord[], now: number): MemoryRecord[] {
  const ranks = new Float64Array(records.length);
  const order: number[] = [];
  for (let index = 0; index < records.length; index++) {
    ranks[index] = relevance(records[index] as MemoryRecord, now);
    order.push(index);
  }
  // -1, 0 or 1 rather than the difference: a comparison allocates no number until the code is optimised.
  order.sort((a, b) => {
    const higher = ranks[b] as number;
    const lower = ranks[a] as number;
    if (higher !== lower) return higher > lower ? 1 : -1;
    return (records[b] as MemoryRecord).confirmedAt.localeCompare((records[a] as MemoryRecord).confirmedAt);
  });
  return order.map((index) => records[index] as MemoryRecord);
}

/** One line, with nothing in it that could close the block or start another line. */
function oneLine(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .replace(/<\/?\s*context_board/gi, (tag) => tag.replace("<", "‹"))
    .trim();
}

export function boardLine(record: MemoryRecord): string {
  const where = record.citations.length > 0 ? ` (${oneLine(record.citations.join(", "))})` : "";
  const scope = record.scope === "user" ? " [you, every repository]" : "";
  return `- [${record.id}] ${oneLine(record.subject)}: ${oneLine(record.fact)}${where}${scope}; confirmed ${record.confirmedAt.slice(0, 10)}`;
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
const SQUEEZABLE = /\s\s|[\t\n\r]|<\/?\s*context_board/i;

/** The most characters the record's line can take: its parts, each with a separator, and the frame. */
function longestLine(record: MemoryRecord): number {
  let length = record.id.length + 60 + record.subject.length + 2 + record.fact.length + 2;
  for (const citation of record.citations) length += citation.length + 2;
  return length;
}

function squeezable(record: MemoryRecord): boolean {
  return SQUEEZABLE.test(record.subject) || SQUEEZABLE.test(record.fact) || record.citations.some((citation) => SQUEEZABLE.test(citation));
}

export function buildBoard(records: readonly MemoryRecord[], options: { budgetTokens?: number; now?: number } = {}): Board {
  const budgetTokens = options.budgetTokens ?? DEFAULT_BOARD_TOKENS;
  const budgetChars = budgetTokens * CHARS_PER_TOKEN;
  const open = `<context_board>\n${BOARD_NOTE}\n`;
  const close = "</context_board>";
  let used = open.length + close.length;
  const shown: MemoryRecord[] = [];
  const lines: string[] = [];
  for (const record of rankMemories(records, options.now ?? Date.now())) {
    const left = budgetChars - used;
    if (left < SHORTEST_LINE) break;
    // A line is never longer than its parts and the frame around them: one that surely fits is built, one that
    // surely does not is skipped unbuilt (only whitespace a line squeezes out could make it fit). Most of a large
    // store is skipped here once the budget is nearly spent, so this allocates nothing.
    if (longestLine(record) > left && !squeezable(record)) continue;
    const line = `${boardLine(record)}\n`;
    // A line that does not fit is skipped: a shorter one further down may still fit.
    if (line.length > left) continue;
    used += line.length;
    shown.push(record);
    lines.push(line);
  }
  const text = shown.length > 0 ? `${open}${lines.join("")}${close}` : "";
  return { text, shown, leftOut: records.length - shown.length, tokens: Math.ceil(text.length / CHARS_PER_TOKEN), budgetTokens };
}

/**
 * The order the board takes memories in: most relevant first, by score and recency (a memory confirmed lately
 * weighs more than one nobody has confirmed for months), newer first on a tie, then in store order (the order a
 * stable sort of the records gives).
 */
import type { MemoryRecord } from "./memory-record.js";

const DAY_MS = 86_400_000;
/** A confirmation is worth up to two points of score, halving every 30 days. */
const RECENCY_POINTS = 2;
const RECENCY_HALF_LIFE_DAYS = 30;
/** The first slice of the order: the board of a large store usually stops within it. */
const FIRST_SLICE = 64;

/** Every memory's relevance (its score is finite, so is its rank). */
function ranksOf(count: number, score: ArrayLike<number>, confirmedAt: readonly string[], now: number): Float64Array {
  const ranks = new Float64Array(count);
  for (let index = 0; index < ranks.length; index++) {
    const confirmed = Date.parse(confirmedAt[index] as string);
    const ageDays = Number.isFinite(confirmed) ? Math.max(0, (now - confirmed) / DAY_MS) : Number.POSITIVE_INFINITY;
    ranks[index] = (score[index] as number) + RECENCY_POINTS * 0.5 ** (ageDays / RECENCY_HALF_LIFE_DAYS);
  }
  return ranks;
}

/** Positions ranked at least `lowest` and below `above`, in store order (the loop a board runs over every memory). */
function positionsBetween(ranks: Float64Array, lowest: number, above: number): number[] {
  const positions: number[] = [];
  for (let index = 0; index < ranks.length; index++) {
    const rank = ranks[index] as number;
    if (rank >= lowest && rank < above) positions.push(index);
  }
  return positions;
}

/**
 * Positions in that order, a slice at a time: a board stops after a few dozen memories, so rather than sorting a
 * thousand positions with a comparison run in JavaScript, a native sort of the ranks tells each slice's lowest
 * rank and only the slice's positions are compared. A slice takes every position ranked as its lowest, so the
 * next one starts strictly below it. (Not a generator: the loops over every memory stay in small functions,
 * which V8 optimises cheaply, early in a process.)
 */
export class RankedOrder {
  private readonly ranks: Float64Array;
  private readonly sorted: Float64Array;
  private readonly compare: (a: number, b: number) => number;
  private remaining: number;
  private above = Number.POSITIVE_INFINITY;
  private size = FIRST_SLICE;
  private slice: number[] = [];
  private at = 0;

  constructor(count: number, score: ArrayLike<number>, confirmedAt: readonly string[], now: number) {
    const ranks = ranksOf(count, score, confirmedAt, now);
    this.ranks = ranks;
    this.sorted = ranks.slice().sort();
    this.remaining = count;
    // -1, 0 or 1 rather than the difference: a comparison allocates no number until the code is optimised.
    this.compare = (a, b) => {
      const higher = ranks[b] as number;
      const lower = ranks[a] as number;
      if (higher !== lower) return higher > lower ? 1 : -1;
      return (confirmedAt[b] as string).localeCompare(confirmedAt[a] as string);
    };
  }

  /** The next position, or -1 after the last. */
  next(): number {
    if (this.at === this.slice.length) {
      if (this.remaining === 0) return -1;
      const lowest = this.sorted[Math.max(0, this.remaining - this.size)] as number;
      this.slice = positionsBetween(this.ranks, lowest, this.above).sort(this.compare);
      this.at = 0;
      this.remaining -= this.slice.length;
      this.above = lowest;
      this.size *= 4;
    }
    return this.slice[this.at++] as number;
  }
}

/** Memories in the order the board takes them. */
export function rankMemories(records: readonly MemoryRecord[], now: number): MemoryRecord[] {
  const order = new RankedOrder(
    records.length,
    records.map((record) => record.score),
    records.map((record) => record.confirmedAt),
    now,
  );
  const ranked: MemoryRecord[] = [];
  for (let index = order.next(); index >= 0; index = order.next()) ranked.push(records[index] as MemoryRecord);
  return ranked;
}

/**
 * The board's reading of a store (src/memory/store-scan.ts) against the plain one: whatever the lines hold, the
 * board built from the scan (its memories ranked and measured from the text, parsed only when shown) is the board
 * built from every record parsed, and the problems are the ones `MemoryStore.read` reports.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { boardLine, boardOf, buildBoard, recordLineLength } from "../../src/memory/context-board.js";
import { parseStoreText, recordsOf, type MemoryRecord } from "../../src/memory/memory-record.js";
import { MemoryStore } from "../../src/memory/memory-store.js";
import { StoreScan } from "../../src/memory/store-scan.js";
import { tempDir } from "../support/engine-harness.js";

const NOW = Date.parse("2026-06-01T00:00:00Z");
const daysAgo = (days: number) => new Date(NOW - days * 86_400_000).toISOString();
const dir = tempDir("store-scan-");

/** A small deterministic generator, so a failure names a seed that shows it again. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
}

// Text the board shows as it is, and every kind it does not: whitespace to squeeze at either end or doubled,
// whitespace other than a space, escapes, a tag, quotes, non-ASCII, a lone surrogate.
const TEXTS = [
  "plain words",
  "x",
  "Run the suite with npm test -- --run.",
  " leading space",
  "trailing space ",
  "two  spaces",
  "tab\there",
  "new\nline",
  "no\u00a0break",
  "line\u2028separator",
  "a </context_board> tag",
  'a "quoted" word',
  "back\\slash",
  "ünïcödé ✓ 日本",
  "bad \ud800 surrogate",
  "   ",
  "<",
];
const CITATIONS: string[][] = [[], ["src/a.ts:1"], ["src/a.ts:1", "README.md:3"], [""], ["a", ""], ["", "b"], [" spaced"], ["x", "y", "z"]];

function record(pick: () => number, n: number): MemoryRecord {
  const choose = <T>(values: readonly T[]): T => values[Math.floor(pick() * values.length)] as T;
  return {
    id: pick() < 0.9 ? `m-${n.toString(16).padStart(8, "0")}` : `odd id ${n}`,
    subject: choose(TEXTS),
    fact: pick() < 0.5 ? `${choose(TEXTS)} ${"fact ".repeat(Math.floor(pick() * 30))}${n}` : choose(TEXTS),
    citations: choose(CITATIONS),
    scope: pick() < 0.8 ? "repository" : "user",
    createdAt: daysAgo(400),
    confirmedAt: pick() < 0.9 ? daysAgo(Math.floor(pick() * 200)) : choose(["not a date", "", "2026"]),
    score: choose([1, 2, 3, 5, 2.5, 0, -0, 1e-7, 10]),
    ...(pick() < 0.7 ? { source: { sessionId: "s-1", toolCallId: `call_${n}` } } : {}),
  };
}

/** A line as the store writes it, or as a person might leave it. */
function line(pick: () => number, memory: MemoryRecord): string {
  const roll = pick();
  if (roll < 0.7) return JSON.stringify(memory);
  if (roll < 0.75) return JSON.stringify({ ...memory, extra: "a person's key" });
  if (roll < 0.8) return JSON.stringify({ fact: memory.fact, id: memory.id, subject: memory.subject, score: memory.score });
  if (roll < 0.83) return `${JSON.stringify(memory)}\r`;
  if (roll < 0.86) return JSON.stringify(memory, null, 0).replace('"score":', '"score": ');
  if (roll < 0.88) return JSON.stringify(memory).replace(/"score":[^,}]+/, '"score":1e3');
  if (roll < 0.9) return "this is not json";
  if (roll < 0.92) return JSON.stringify({ ...memory, subject: "" });
  if (roll < 0.94) return JSON.stringify({ ...memory, score: "high" });
  if (roll < 0.96) return "   ";
  if (roll < 0.98) return "";
  return JSON.stringify({ ...memory, citations: "one" });
}

function storeText(seed: number, count: number): string {
  const pick = random(seed);
  const lines = Array.from({ length: count }, (_, n) => line(pick, record(pick, n)));
  return `${lines.join("\n")}${pick() < 0.5 ? "\n" : ""}`;
}

describe("the board read from a store's text", () => {
  it("is the board of the parsed records, for stores of every kind of line, at every budget", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const text = storeText(seed, 1 + (seed % 7) * 40);
      const records = recordsOf(parseStoreText(text));
      const scan = new StoreScan();
      scan.add(text, "store.jsonl");
      for (const budgetTokens of [20, 60, 100, 250, 777, 1_500, 100_000]) {
        const expected = buildBoard(records, { budgetTokens, now: NOW });
        expect(boardOf(scan, { budgetTokens, now: NOW }), `seed ${seed}, budget ${budgetTokens}`).toEqual(expected);
      }
    }
  });

  it("reports the lines that are not memories as the store does, and counts the memories of two files in order", () => {
    const texts = [storeText(7, 120), storeText(8, 80)];
    const files = texts.map((text, n) => {
      const file = path.join(dir, `store-${n}.jsonl`);
      writeFileSync(file, text);
      return file;
    });
    const scan = new StoreScan();
    texts.forEach((text, n) => scan.add(text, files[n] as string));
    const expected = files.flatMap((file) => new MemoryStore(file).read().problems.map((problem) => ({ ...problem, file })));
    expect(expected.length).toBeGreaterThan(3);
    expect(scan.problems).toEqual(expected);
    const records = files.flatMap((file) => new MemoryStore(file).read().records);
    expect(scan.count).toBe(records.length);
    expect(Array.from({ length: scan.count }, (_, index) => scan.record(index))).toEqual(records);
  });

  it("knows a line's length without building it only when that is its length", () => {
    const pick = random(99);
    let known = 0;
    for (let n = 0; n < 2_000; n++) {
      const memory = record(pick, n);
      const length = recordLineLength(memory);
      if (length >= 0) {
        known++;
        expect(length, JSON.stringify(memory)).toBe(boardLine(memory).length + 1);
      }
      const scan = new StoreScan();
      scan.add(JSON.stringify(memory), "store.jsonl");
      const scanned = scan.lineLength[0] as number;
      if (scanned >= 0) expect(scanned, JSON.stringify(memory)).toBe(boardLine(memory).length + 1);
    }
    expect(known).toBeGreaterThan(200);
  });

  it("shows a line that fits exactly in what a longer one left", () => {
    const memory = (id: string, fact: string, score: number): MemoryRecord => ({
      id,
      subject: "s",
      fact,
      citations: ["a.ts:1"],
      scope: "repository",
      createdAt: daysAgo(1),
      confirmedAt: daysAgo(1),
      score,
    });
    const long = memory("m-00000001", "x".repeat(200), 5);
    const text = `${JSON.stringify(long)}\n`;
    const frame = buildBoard([long], { now: NOW }).text.length - boardLine(long).length - 1;
    // Short lines of every length modulo 4, so one of them fills the budget (four characters a token) exactly.
    for (let extra = 0; extra < 4; extra++) {
      const short = memory("m-00000002", `Short fact${".".repeat(extra)}`, 1);
      const needed = frame + boardLine(long).length + 1 + boardLine(short).length + 1;
      const scan = new StoreScan();
      scan.add(`${text}${JSON.stringify(short)}`, "store.jsonl");
      for (const [budgetTokens, ids] of [
        [Math.ceil(needed / 4), ["m-00000001", "m-00000002"]],
        [Math.ceil(needed / 4) - 1, ["m-00000001"]],
      ] as const) {
        for (const board of [buildBoard([long, short], { now: NOW, budgetTokens }), boardOf(scan, { now: NOW, budgetTokens })]) {
          expect(
            board.shown.map((shown) => shown.id),
            `${needed} characters in ${budgetTokens} tokens`,
          ).toEqual(ids);
        }
      }
    }
  });
});

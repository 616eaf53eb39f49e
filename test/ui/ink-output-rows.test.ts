/**
 * Ink's frames built row by row (src/ui/terminal/ink-output-rows.ts) are Ink's own to the byte: the same
 * writes give the same text through Ink's get() and through the row builder, fresh and from its cache, for
 * styled text, wide characters, writes past the edges, several lines per write, overlapping writes and
 * transformers; a clipped frame is left to Ink.
 */
import { describe, expect, it } from "vitest";
import Output from "../../node_modules/ink/build/output.js";
import { buildInkRowsOnce, inkOutputGet, rowsGet } from "../../src/ui/terminal/ink-output-rows.js";
import { singleWriteRow } from "../../src/ui/terminal/single-write-row.js";

type Transformer = (line: string, index: number) => string;

/** A small deterministic generator, so a failure names its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const PIECES = [
  "a",
  "word",
  " ",
  "  ",
  "─",
  "●",
  "✓",
  "界",
  "漢字",
  "👍",
  "é",
  "\u001b[1m",
  "\u001b[22m",
  "\u001b[31m",
  "\u001b[39m",
  "\u001b[2m",
  "\u001b[0m",
  "\u001b[38;5;12m",
  "\u001b]8;;https://x\u0007",
  "\u001b]8;;\u0007",
  "›",
  "…",
];
const TRANSFORMERS: Transformer[] = [
  (line) => line.toUpperCase(),
  (line, index) => (index === 0 ? `> ${line}` : `  ${line}`),
  (line) => `\u001b[2m${line}\u001b[22m`,
];

function text(next: () => number): string {
  const lines: string[] = [];
  const count = 1 + Math.floor(next() * 3);
  for (let l = 0; l < count; l++) {
    let line = "";
    const parts = Math.floor(next() * 12);
    for (let p = 0; p < parts; p++) line += PIECES[Math.floor(next() * PIECES.length)] as string;
    lines.push(line);
  }
  return lines.join("\n");
}

function frame(seed: number): Output {
  const next = random(seed);
  const width = 10 + Math.floor(next() * 30);
  const height = 1 + Math.floor(next() * 8);
  const output = new Output({ width, height });
  const writes = Math.floor(next() * 12);
  for (let w = 0; w < writes; w++) {
    const transformers = next() < 0.3 ? [TRANSFORMERS[Math.floor(next() * TRANSFORMERS.length)] as Transformer] : [];
    output.write(Math.floor(next() * (width + 4)) - 2, Math.floor(next() * (height + 4)) - 2, text(next), { transformers });
  }
  return output;
}

describe("Ink frames built row by row", () => {
  it("gives Ink's text for random frames, built fresh and again from the cache", () => {
    let drawn = 0;
    for (let seed = 1; seed <= 1500; seed++) {
      const expected = inkOutputGet.call(frame(seed));
      if (expected.output.trim() !== "") drawn++;
      expect(rowsGet.call(frame(seed)), `seed ${seed}`).toEqual(expected);
      expect(rowsGet.call(frame(seed)), `seed ${seed}, cached`).toEqual(expected);
    }
    expect(drawn).toBeGreaterThan(1000);
  });

  it("gives Ink's text for a frame like the TUI's: styled rows, an indented list, a composer line", () => {
    const build = (typed: string) => {
      const output = new Output({ width: 60, height: 6 });
      output.write(0, 0, "\u001b[1mBackground · 10 running\u001b[22m", { transformers: [] });
      output.write(2, 1, "\u001b[36m●\u001b[39m \u001b[1ms0-1\u001b[22m (explore) running 0s", { transformers: [] });
      output.write(2, 2, "\u001b[36m●\u001b[39m \u001b[1ms1-1\u001b[22m (explore) running 0s", { transformers: [] });
      output.write(0, 3, "─".repeat(60), { transformers: [] });
      output.write(0, 4, `› ${typed}`, { transformers: [] });
      return output;
    };
    for (const typed of ["", "a", "ab", "漢字", "a"]) expect(rowsGet.call(build(typed))).toEqual(inkOutputGet.call(build(typed)));
  });

  it("gives Ink's text for short rows in a wide frame: a row is built from only the blanks its writes start in", () => {
    const endings = ["  ", "\u001b[31m \u001b[39m", "\u001b[7m \u001b[27m", "界", "\u001b]8;;https://x\u0007link", "\u001b[1mbold", "\u001b[0m", ""];
    // Writes that start anywhere in the first 30 of 120 columns (gaps between them, overlaps), each ending
    // in blanks, a styled blank, a wide character, an open link or style, or a reset.
    const build = (seed: number) => {
      const next = random(seed);
      const output = new Output({ width: 120, height: 3 });
      const writes = 1 + Math.floor(next() * 4);
      for (let w = 0; w < writes; w++) {
        const line = (text(next).split("\n")[0] as string) + (endings[Math.floor(next() * endings.length)] as string);
        output.write(Math.floor(next() * 30), Math.floor(next() * 3), line, { transformers: [] });
      }
      return output;
    };
    for (let seed = 1; seed <= 400; seed++) expect(rowsGet.call(build(seed)), `seed ${seed}`).toEqual(inkOutputGet.call(build(seed)));
  });

  it("builds a one-write row without cells as Ink does, to the byte, and leaves Ink the lines it cannot take", () => {
    // What the TUI's rows are made of, and what could make a copy differ from Ink's cells: compound and 8/24-bit
    // codes, resets, codes that change nothing, marks and joiners (after a code too), wide and zero-width
    // graphemes, controls, trailing blanks (plain, styled, no-break), stray and non-SGR escapes, C1 CSI.
    const pieces = [
      ...PIECES,
      "\u001b[1;31m",
      "\u001b[38;2;10;20;30m",
      "\u001b[48;5;200m",
      "\u001b[49m",
      "\u001b[m",
      "\u001b[2;1m",
      "\u001b[31m\u001b[31m",
      "\u0301",
      "e\u0301",
      "\u200d",
      "👨\u200d👩\u200d👧",
      "❤\ufe0f",
      "🇫🇷",
      "\t",
      "\r",
      "   ",
      "\u00a0",
      "\u001b",
      "\u001b[K",
      "\u001b[12",
      "\u009b31m",
    ];
    const next = random(7);
    let fast = 0;
    for (let round = 0; round < 4000; round++) {
      let line = "";
      const parts = Math.floor(next() * 14);
      for (let p = 0; p < parts; p++) line += pieces[Math.floor(next() * pieces.length)] as string;
      const blanks = Math.floor(next() * 4);
      const one = new Output({ width: blanks, height: 1 });
      one.write(blanks, 0, line, { transformers: [] });
      const built = singleWriteRow(blanks, line);
      if (built === undefined) continue;
      fast++;
      expect(built, JSON.stringify({ blanks, line })).toBe(inkOutputGet.call(one).output);
    }
    // Most lines are taken (the ones left to Ink hold a link, a stray escape or a mark after a code).
    expect(fast).toBeGreaterThan(1000);
    expect(singleWriteRow(0, "a\u001b]8;;https://x\u0007b")).toBeUndefined();
    expect(singleWriteRow(0, "\u001b[31m\u0301x")).toBeUndefined();
    expect(singleWriteRow(0, "\u001b[31mred\u001b[39m  ")).toBe("\u001b[31mred\u001b[39m");
  });

  it("leaves a clipped frame to Ink", () => {
    const output = new Output({ width: 20, height: 3 });
    output.clip({ x1: 2, x2: 8, y1: 0, y2: 2 });
    output.write(0, 0, "clipped text\nmore clipped text\nand more", { transformers: [] });
    output.unclip();
    output.write(0, 2, "after", { transformers: [] });
    expect(rowsGet.call(output)).toEqual(inkOutputGet.call(output));
  });

  it("is what Ink's renderer calls once installed", () => {
    buildInkRowsOnce();
    expect(Output.prototype.get).toBe(rowsGet);
  });
});

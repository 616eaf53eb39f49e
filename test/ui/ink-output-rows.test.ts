/**
 * Ink's frames built row by row (src/ui/terminal/ink-output-rows.ts) are Ink's own to the byte: the same
 * writes give the same text through Ink's get() and through the row builder, fresh and from its cache, for
 * styled text, wide characters, writes past the edges, several lines per write, overlapping writes and
 * transformers; a clipped frame is left to Ink.
 */
import { describe, expect, it } from "vitest";
import Output from "../../node_modules/ink/build/output.js";
import { buildInkRowsOnce, inkOutputGet, rowsGet } from "../../src/ui/terminal/ink-output-rows.js";

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

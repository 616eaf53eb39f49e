/**
 * Ink builds every frame cell by cell: Output.get() makes an object for each cell of the live area, tokenizes
 * each line's ANSI codes and measures each character, then joins the cells back into text, for every row of
 * every frame (and for <Static>'s output). While ten background agents start, that was the largest part of the
 * TUI's CPU (~170 ms of 520 from Enter to the twelfth key's echo) and of its garbage, and it held the keys.
 *
 * Rows rarely change from one frame to the next (the composer's row changes with a key, an agent's row with
 * its progress; the rest is the same text at the same place). This replaces Output.get with one that collects
 * each row's writes (in order, after Ink's transformers) and builds a row only when that exact row has not
 * been built before, with Ink's own get() on a one-row Output, so a row's text is Ink's to the byte. A frame
 * with clipping (overflow: hidden; only a dialog taller than its room) goes through Ink's get() whole.
 *
 * Ink does not export its Output class; it is reached by its file, which is the same module Ink's renderer
 * imports (in the bundle and in Node alike).
 */
import Output from "../../../node_modules/ink/build/output.js";
import { singleWriteRow } from "./single-write-row.js";

type Transformer = (line: string, index: number) => string;
type Operation = { type: "write"; x: number; y: number; text: string; transformers: Transformer[] } | { type: "clip" } | { type: "unclip" };
interface OutputInternals {
  width: number;
  height: number;
  operations: Operation[];
}

const inkGet = Output.prototype.get;
/** Built rows by width and writes; cleared when it grows past this many (about a megabyte: a live area has tens of rows, and history passes once). */
const MAX_ROWS = 1000;
const rows = new Map<string, string>();

/**
 * Ink's get() on a one-row Output: it starts each row as `width` blank cells, writes the characters over
 * them (past the width too: writes are not cut there), joins the cells and trims the trailing blanks. Blanks
 * after the last written character only add trailing spaces that the trim takes off again (the styles are
 * closed after the last character either way), so the row starts with only the blanks a write's start needs
 * (no write may start past the blanks, or its characters would close up to the left): the same text from
 * fewer cells. A 15-character spinner row of a 120-column frame built 120 cells.
 */
function buildRow(width: number, writes: readonly (number | string)[]): string {
  // One write from the left edge on (one starting left of it loses the characters there: Ink's way).
  if (writes.length === 2 && (writes[0] as number) >= 0) {
    const row = singleWriteRow(Math.min(width, writes[0] as number), writes[1] as string);
    if (row !== undefined) return row;
  }
  let furthestStart = 0;
  for (let i = 0; i < writes.length; i += 2) furthestStart = Math.max(furthestStart, writes[i] as number);
  const one = new Output({ width: Math.min(width, furthestStart), height: 1 });
  for (let i = 0; i < writes.length; i += 2) one.write(writes[i] as number, 0, writes[i + 1] as string, { transformers: [] });
  return inkGet.call(one).output;
}

export function rowsGet(this: Output): { output: string; height: number } {
  const { width, height, operations } = this as unknown as OutputInternals;
  if (operations.some((operation) => operation.type === "clip")) return inkGet.call(this);
  // Each row's writes as x, line, x, line, … in the order Ink would apply them.
  const writes: (number | string)[][] = Array.from({ length: height }, () => []);
  for (const operation of operations) {
    if (operation.type !== "write" || !operation.text) continue;
    const lines = operation.text.split("\n");
    let offsetY = 0;
    for (let index = 0; index < lines.length; index++) {
      const row = writes[operation.y + offsetY];
      // As Ink does: a line outside the frame is skipped without moving on a row.
      if (!row) continue;
      let line = lines[index] as string;
      for (const transformer of operation.transformers) line = transformer(line, index);
      row.push(operation.x, line);
      offsetY++;
    }
  }
  if (rows.size > MAX_ROWS) rows.clear();
  const out: string[] = [];
  for (const row of writes) {
    if (row.length === 0) {
      out.push("");
      continue;
    }
    let key = String(width);
    for (let i = 0; i < row.length; i += 2) key += `\u0000${row[i] as number}\u0000${(row[i + 1] as string).length}\u0000${row[i + 1] as string}`;
    let text = rows.get(key);
    if (text === undefined) {
      text = buildRow(width, row);
      rows.set(key, text);
    }
    out.push(text);
  }
  return { output: out.join("\n"), height };
}

/** Ink's own get(), for comparison in tests. */
export const inkOutputGet = inkGet;

/** Idempotent: every Ink frame in this process is built row by row from now on. */
export function buildInkRowsOnce(): void {
  Output.prototype.get = rowsGet;
}

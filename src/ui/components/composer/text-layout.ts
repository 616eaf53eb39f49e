/**
 * Which rows of the prompt to draw: the text wrapped to a width (word wrap; CJK and emoji measured with
 * string-width; a word longer than the row is cut at a grapheme), and only the rows around the cursor, at most
 * `maxRows`, with counts of what is hidden above and below. Only the visible neighbourhood is wrapped: a
 * line longer than GIANT_LINE is wrapped in aligned chunks around the cursor, so a 5 MB one-line paste
 * costs a few thousand characters of work per frame, not five million.
 */
import { codePointBoundary, forEachGrapheme } from "./graphemes.js";
import { lineEndAt, lineStartAt } from "./editor-state.js";

/** One screen row: text[start, end). */
export interface Row {
  start: number;
  end: number;
}

export interface EditorLayout {
  rows: Row[];
  /** Index into `rows` of the row holding the cursor. */
  cursorRow: number;
  /** Screen rows not drawn above / below (estimated by length for lines never wrapped). */
  hiddenAbove: number;
  hiddenBelow: number;
}

const GIANT_LINE = 16_384;
const CHUNK = 4096;

function estimateRows(length: number, width: number): number {
  return Math.max(1, Math.ceil(length / width));
}

/** Greedy word wrap of text[from, to) into rows of at most `width` columns. */
export function wrapRange(text: string, from: number, to: number, width: number): Row[] {
  if (from >= to) return [{ start: from, end: from }];
  const rows: Row[] = [];
  let rowStart = from;
  let rowWidth = 0;
  let breakAt = -1; // index just after the last space in the row
  let widthAtBreak = 0;
  forEachGrapheme(text, from, to, (start, end, width_) => {
    while (rowWidth + width_ > width && rowWidth > 0) {
      if (breakAt > rowStart) {
        rows.push({ start: rowStart, end: breakAt });
        rowStart = breakAt;
        rowWidth -= widthAtBreak;
      } else {
        rows.push({ start: rowStart, end: start });
        rowStart = start;
        rowWidth = 0;
      }
      breakAt = -1;
      widthAtBreak = 0;
    }
    rowWidth += width_;
    if (text[start] === " ") {
      breakAt = end;
      widthAtBreak = rowWidth;
    }
  });
  rows.push({ start: rowStart, end: to });
  return rows;
}

interface WrappedLine {
  rows: Row[];
  /** Estimated rows of the line left out before / after the wrapped window (giant lines only). */
  hiddenBefore: number;
  hiddenAfter: number;
}

/** Wraps the line [start, end), or for a giant line the chunk-aligned window around `focus`. */
function wrapLine(text: string, start: number, end: number, width: number, focus: number): WrappedLine {
  if (end - start <= GIANT_LINE) return { rows: wrapRange(text, start, end, width), hiddenBefore: 0, hiddenAfter: 0 };
  const from = codePointBoundary(text, Math.max(start, start + (Math.floor((focus - start) / CHUNK) - 1) * CHUNK));
  const to = codePointBoundary(text, Math.min(end, from + 3 * CHUNK));
  return {
    rows: wrapRange(text, from, to, width),
    hiddenBefore: from > start ? estimateRows(from - start, width) : 0,
    hiddenAfter: to < end ? estimateRows(end - to, width) : 0,
  };
}

function rowOf(rows: readonly Row[], cursor: number): number {
  for (let index = 0; index < rows.length - 1; index++) if (cursor < (rows[index + 1] as Row).start) return index;
  return rows.length - 1;
}

/**
 * How many rows to show above and below the cursor row. With an `anchor` (the first row shown last time)
 * the view stays put while the cursor moves inside it and scrolls by as little as needed when it leaves;
 * without one, the cursor row goes as low as half the rows below it allow.
 */
function placeCursorRow(above: readonly Row[], below: readonly Row[], own: Row, limit: number, anchor: number | undefined): [number, number] {
  let wanted = Math.min(above.length, limit - 1 - Math.min(below.length, Math.floor((limit - 1) / 2)));
  if (anchor !== undefined) {
    if (anchor >= own.start)
      wanted = 0; // the cursor moved up to or past the top row
    else {
      const index = above.findIndex((row) => row.start === anchor);
      if (index >= 0) wanted = index + 1;
    }
  }
  let showAbove = Math.min(above.length, Math.max(0, Math.min(wanted, limit - 1)));
  const showBelow = Math.min(below.length, limit - 1 - showAbove);
  showAbove = Math.min(above.length, limit - 1 - showBelow); // fill the box when there is little below
  return [showAbove, showBelow];
}

/** Lays out the rows around the cursor; `anchor` is the start of the first row shown last time, if any. */
export function layoutEditor(text: string, cursor: number, width: number, maxRows: number, anchor?: number): EditorLayout {
  const columns = Math.max(1, width);
  const limit = Math.max(1, maxRows);
  const lineStart = lineStartAt(text, cursor);
  const lineEnd = lineEndAt(text, cursor);
  const own = wrapLine(text, lineStart, lineEnd, columns, cursor);
  const ownRow = rowOf(own.rows, cursor);

  // Rows above the cursor row, nearest first; stop wrapping once there are enough, then only count.
  const above: Row[] = own.rows.slice(0, ownRow).reverse();
  let hiddenAbove = own.hiddenBefore;
  let gap = own.hiddenBefore > 0;
  for (let end = lineStart - 1; end >= 0;) {
    const start = lineStartAt(text, end);
    if (gap || above.length >= limit) hiddenAbove += estimateRows(end - start, columns);
    else {
      const wrapped = wrapLine(text, start, end, columns, end);
      above.push(...wrapped.rows.slice().reverse());
      hiddenAbove += wrapped.hiddenBefore;
      gap = wrapped.hiddenBefore > 0;
    }
    end = start - 1;
  }

  const below: Row[] = own.rows.slice(ownRow + 1);
  let hiddenBelow = own.hiddenAfter;
  gap = own.hiddenAfter > 0;
  for (let start = lineEnd + 1; start <= text.length && lineEnd < text.length;) {
    const end = lineEndAt(text, start);
    if (gap || below.length >= limit) hiddenBelow += estimateRows(end - start, columns);
    else {
      const wrapped = wrapLine(text, start, end, columns, start);
      below.push(...wrapped.rows);
      hiddenBelow += wrapped.hiddenAfter;
      gap = wrapped.hiddenAfter > 0;
    }
    if (end >= text.length) break;
    start = end + 1;
  }

  const [showAbove, showBelow] = placeCursorRow(above, below, own.rows[ownRow] as Row, limit, anchor);
  hiddenAbove += above.length - showAbove;
  hiddenBelow += below.length - showBelow;
  const rows = [...above.slice(0, showAbove).reverse(), own.rows[ownRow] as Row, ...below.slice(0, showBelow)];
  return { rows, cursorRow: showAbove, hiddenAbove, hiddenBelow };
}

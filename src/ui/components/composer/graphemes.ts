/**
 * Grapheme and width helpers that only look at a window around an index, so moving the cursor in a 5 MB
 * prompt costs the same as in a short one. Cursor moves never split a surrogate pair or a cluster (emoji with
 * modifiers, ZWJ sequences, flags, combining marks).
 */
import stringWidth from "string-width";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Display columns of a short string (CJK and emoji are 2 wide). */
export function displayWidth(text: string): number {
  return PRINTABLE_ASCII.test(text) ? text.length : stringWidth(text);
}

/** The index just after the grapheme that starts at `index`. */
export function nextGraphemeEnd(text: string, index: number): number {
  if (index >= text.length) return text.length;
  for (let window = 32; ; window *= 4) {
    const end = Math.min(text.length, index + window);
    const first = segmenter.segment(text.slice(index, end))[Symbol.iterator]().next();
    const length = first.done ? 1 : first.value.segment.length;
    // A cluster that fills the whole window may go on past it: look again with a wider window.
    if (index + length < end || end === text.length) return index + length;
  }
}

/** The index where the grapheme that ends at `index` starts. */
export function previousGraphemeStart(text: string, index: number): number {
  if (index <= 0) return 0;
  for (let window = 32; ; window *= 4) {
    const start = Math.max(0, index - window);
    let last = start;
    for (const segment of segmenter.segment(text.slice(start, index))) last = start + segment.index;
    if (last > start || start === 0) return last;
  }
}

/** Calls `visit(start, end, width)` for each grapheme of text[from, to); stops when it returns false. */
export function forEachGrapheme(text: string, from: number, to: number, visit: (start: number, end: number, width: number) => boolean | void): void {
  const slice = text.slice(from, to);
  if (PRINTABLE_ASCII.test(slice)) {
    for (let index = 0; index < slice.length; index++) if (visit(from + index, from + index + 1, 1) === false) return;
    return;
  }
  for (const { segment, index } of segmenter.segment(slice)) {
    // Control characters (tabs, stray escapes in a paste) are drawn as one cell each.
    const width = /^[\x00-\x1f\x7f]$/.test(segment) ? 1 : stringWidth(segment);
    if (visit(from + index, from + index + segment.length, width) === false) return;
  }
}

/** Moves an index off the second half of a surrogate pair (used when a window edge is picked by arithmetic). */
export function codePointBoundary(text: string, index: number): number {
  if (index <= 0 || index >= text.length) return Math.max(0, Math.min(index, text.length));
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff ? index - 1 : index;
}

const WORD = /[\p{L}\p{N}\p{M}_]/u;

/** The code point just before `index` ("" at the start). */
export function codePointBefore(text: string, index: number): string {
  if (index <= 0) return "";
  const low = text.charCodeAt(index - 1);
  if (index >= 2 && low >= 0xdc00 && low <= 0xdfff) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(index - 2, index);
  }
  return text.slice(index - 1, index);
}

/** The code point starting at `index` ("" at the end). */
export function codePointAt(text: string, index: number): string {
  const code = text.codePointAt(index);
  return code === undefined ? "" : String.fromCodePoint(code);
}

export function isWordChar(char: string): boolean {
  return WORD.test(char);
}

/**
 * The prompt editor as a pure model: text, a cursor (a UTF-16 index into the text) and the pastes hidden
 * behind chips. Every function takes a state and returns the next one; nothing here knows about React or keys.
 *
 * Cost: an edit slices the text once and looks only at a bounded window around the cursor, so a 5 MB prompt
 * stays O(n) per edit at worst (V8 slices and concatenations of large strings are cheap) and a chip paste never
 * copies the pasted text more than once.
 */
import { codePointAt, codePointBefore, displayWidth, forEachGrapheme, isWordChar, nextGraphemeEnd, previousGraphemeStart } from "./graphemes.js";
import {
  PASTE_CHIP_MIN_LINES,
  chipAround,
  chipEndingAt,
  chipIds,
  chipStartingAt,
  chipToken,
  countLines,
  expandChips,
  normaliseNewlines,
  type PasteTable,
} from "./paste-chips.js";

export interface EditorState {
  readonly text: string;
  /** UTF-16 index into `text`; never inside a chip or a surrogate pair. */
  readonly cursor: number;
  /** Chip id → the pasted text it stands for. */
  readonly pastes: PasteTable;
  /** The id of the last chip made (ids are never reused within one editor). */
  readonly pasteCounter: number;
  /** The display column ↑/↓ aim for, kept across a run of vertical moves. */
  readonly goalColumn?: number;
}

export const emptyEditor: EditorState = { text: "", cursor: 0, pastes: {}, pasteCounter: 0 };

/** An editor holding `text` (newlines normalised), the cursor at the end or at `cursor`. */
export function editorFromText(text: string, cursor?: number): EditorState {
  const normalised = normaliseNewlines(text);
  return { text: normalised, cursor: Math.max(0, Math.min(cursor ?? normalised.length, normalised.length)), pastes: {}, pasteCounter: 0 };
}

/** The text to send: chips replaced by their pastes, byte for byte. */
export function expand(state: EditorState): string {
  return expandChips(state.text, state.pastes);
}

export function lineStartAt(text: string, index: number): number {
  return index <= 0 ? 0 : text.lastIndexOf("\n", index - 1) + 1;
}

export function lineEndAt(text: string, index: number): number {
  const end = text.indexOf("\n", index);
  return end < 0 ? text.length : end;
}

/**
 * Replaces text[start, end) with `insert`. A range that cuts into a chip grows to take the whole chip, and the
 * pastes of removed chips are dropped. The cursor lands after the insertion.
 */
export function replaceRange(state: EditorState, start: number, end: number, insert: string): EditorState {
  const { text } = state;
  let from = Math.max(0, Math.min(start, end));
  let to = Math.min(text.length, Math.max(start, end));
  from = chipAround(text, state.pastes, from)?.start ?? from;
  to = chipAround(text, state.pastes, to)?.end ?? to;
  let pastes = state.pastes;
  if (to > from && state.pasteCounter > 0) {
    const removed = chipIds(text.slice(from, to));
    if (removed.size > 0) {
      const kept: Record<string, string> = {};
      for (const [id, value] of Object.entries(pastes)) if (!removed.has(id)) kept[id] = value;
      pastes = kept;
    }
  }
  return { text: text.slice(0, from) + insert + text.slice(to), cursor: from + insert.length, pastes, pasteCounter: state.pasteCounter };
}

function withCursor(state: EditorState, cursor: number, goalColumn?: number): EditorState {
  return goalColumn === undefined ? { text: state.text, cursor, pastes: state.pastes, pasteCounter: state.pasteCounter } : { ...state, cursor, goalColumn };
}

/** Inserts typed text at the cursor (newlines normalised). */
export function insertText(state: EditorState, text: string): EditorState {
  return text === "" ? state : replaceRange(state, state.cursor, state.cursor, normaliseNewlines(text));
}

export function insertNewline(state: EditorState): EditorState {
  return insertText(state, "\n");
}

/**
 * A paste: more than 10 lines becomes a `[Paste #N – X lines]` chip (the text kept aside, stored once);
 * anything smaller is inserted as typed text. Newlines are normalised either way.
 */
export function insertPaste(state: EditorState, pasted: string): EditorState {
  const text = normaliseNewlines(pasted);
  if (text === "") return state;
  const lines = countLines(text);
  if (lines < PASTE_CHIP_MIN_LINES) return replaceRange(state, state.cursor, state.cursor, text);
  const id = state.pasteCounter + 1;
  const next = replaceRange(state, state.cursor, state.cursor, chipToken(id, lines));
  return { ...next, pastes: { ...next.pastes, [String(id)]: text }, pasteCounter: id };
}

export function backspace(state: EditorState): EditorState {
  if (state.cursor === 0) return state;
  const chip = chipEndingAt(state.text, state.pastes, state.cursor);
  return replaceRange(state, chip ? chip.start : previousGraphemeStart(state.text, state.cursor), state.cursor, "");
}

export function deleteForward(state: EditorState): EditorState {
  if (state.cursor >= state.text.length) return state;
  const chip = chipStartingAt(state.text, state.pastes, state.cursor);
  return replaceRange(state, state.cursor, chip ? chip.end : nextGraphemeEnd(state.text, state.cursor), "");
}

export function moveLeft(state: EditorState): EditorState {
  if (state.cursor === 0) return withCursor(state, 0);
  const chip = chipEndingAt(state.text, state.pastes, state.cursor);
  return withCursor(state, chip ? chip.start : previousGraphemeStart(state.text, state.cursor));
}

export function moveRight(state: EditorState): EditorState {
  if (state.cursor >= state.text.length) return withCursor(state, state.text.length);
  const chip = chipStartingAt(state.text, state.pastes, state.cursor);
  return withCursor(state, chip ? chip.end : nextGraphemeEnd(state.text, state.cursor));
}

export function moveLineStart(state: EditorState): EditorState {
  return withCursor(state, lineStartAt(state.text, state.cursor));
}

export function moveLineEnd(state: EditorState): EditorState {
  return withCursor(state, lineEndAt(state.text, state.cursor));
}

/** Long lines measure columns by length beyond this (an approximation that keeps ↑/↓ cheap). */
const EXACT_COLUMN_LIMIT = 4096;

function columnOf(text: string, lineStart: number, index: number): number {
  return index - lineStart > EXACT_COLUMN_LIMIT ? index - lineStart : displayWidth(text.slice(lineStart, index));
}

/** The index on the line [start, end) closest to `column` without passing it; never inside a chip. */
function indexAtColumn(state: EditorState, start: number, end: number, column: number): number {
  let index = start;
  let width = 0;
  if (end - start > EXACT_COLUMN_LIMIT && column > EXACT_COLUMN_LIMIT) index = Math.min(end, start + column);
  else
    forEachGrapheme(state.text, start, Math.min(end, start + column * 8 + 64), (_from, to, charWidth) => {
      if (width + charWidth > column) return false;
      width += charWidth;
      index = to;
      return true;
    });
  const chip = chipAround(state.text, state.pastes, index);
  return chip ? chip.end : index;
}

function moveVertically(state: EditorState, direction: -1 | 1): EditorState | undefined {
  const { text, cursor } = state;
  const start = lineStartAt(text, cursor);
  const column = state.goalColumn ?? columnOf(text, start, cursor);
  if (direction < 0) {
    if (start === 0) return undefined;
    const previousStart = lineStartAt(text, start - 1);
    return withCursor(state, indexAtColumn(state, previousStart, start - 1, column), column);
  }
  const end = lineEndAt(text, cursor);
  if (end >= text.length) return undefined;
  return withCursor(state, indexAtColumn(state, end + 1, lineEndAt(text, end + 1), column), column);
}

/** One line up, keeping the column; undefined on the first line (the caller may walk the history instead). */
export function moveUp(state: EditorState): EditorState | undefined {
  return moveVertically(state, -1);
}

/** One line down, keeping the column; undefined on the last line. */
export function moveDown(state: EditorState): EditorState | undefined {
  return moveVertically(state, 1);
}

/** Where a word move to the left stops: over non-word characters, then over a word (a chip counts as a word). */
export function wordLeftIndex(state: EditorState): number {
  const { text, pastes } = state;
  let index = state.cursor;
  while (index > 0) {
    const chip = chipEndingAt(text, pastes, index);
    if (chip) return chip.start;
    const char = codePointBefore(text, index);
    if (isWordChar(char)) break;
    index -= char.length;
  }
  while (index > 0) {
    const char = codePointBefore(text, index);
    if (!isWordChar(char)) break;
    index -= char.length;
  }
  return index;
}

export function wordRightIndex(state: EditorState): number {
  const { text, pastes } = state;
  let index = state.cursor;
  while (index < text.length) {
    const chip = chipStartingAt(text, pastes, index);
    if (chip) return chip.end;
    const char = codePointAt(text, index);
    if (isWordChar(char)) break;
    index += char.length;
  }
  while (index < text.length) {
    const char = codePointAt(text, index);
    if (!isWordChar(char)) break;
    index += char.length;
  }
  return index;
}

export function moveWordLeft(state: EditorState): EditorState {
  return withCursor(state, wordLeftIndex(state));
}

export function moveWordRight(state: EditorState): EditorState {
  return withCursor(state, wordRightIndex(state));
}

/** Ctrl+W / Alt+Backspace. */
export function deleteWordBack(state: EditorState): EditorState {
  return replaceRange(state, wordLeftIndex(state), state.cursor, "");
}

/** Alt+D. */
export function deleteWordForward(state: EditorState): EditorState {
  return replaceRange(state, state.cursor, wordRightIndex(state), "");
}

/** Ctrl+U: to the start of the line; at the start of a line, joins it to the previous one. */
export function deleteToLineStart(state: EditorState): EditorState {
  const start = lineStartAt(state.text, state.cursor);
  if (start === state.cursor) return state.cursor === 0 ? state : replaceRange(state, state.cursor - 1, state.cursor, "");
  return replaceRange(state, start, state.cursor, "");
}

/** Ctrl+K: to the end of the line; at the end of a line, joins the next one to it. */
export function deleteToLineEnd(state: EditorState): EditorState {
  const end = lineEndAt(state.text, state.cursor);
  if (end === state.cursor) return end >= state.text.length ? state : replaceRange(state, end, end + 1, "");
  return replaceRange(state, state.cursor, end, "");
}

/** Whether the cursor is on the first / last line (where ↑ / ↓ walk the history). */
export function onFirstLine(state: EditorState): boolean {
  return lineStartAt(state.text, state.cursor) === 0;
}

export function onLastLine(state: EditorState): boolean {
  return lineEndAt(state.text, state.cursor) === state.text.length;
}

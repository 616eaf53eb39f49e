/**
 * Paste chips: a paste of more than PASTE_CHIP_MIN_LINES - 1 lines shows in the prompt as one token,
 * `[Paste #N – X lines]`, while its text waits in a side table until the prompt is sent. Everything here
 * looks at a bounded window around an index, so it costs the same for a 5 MB prompt as for a short one.
 */

/** A paste with at least this many lines becomes a chip ("more than 10 lines"). */
export const PASTE_CHIP_MIN_LINES = 11;

/** The longest a chip token can be: `[Paste #` + id + ` – ` + count + ` lines]` with 15-digit numbers. */
const MAX_CHIP_LENGTH = 64;
const CHIP_PATTERN = String.raw`\[Paste #(\d+) \u2013 (\d+) lines\]`;
const CHIP_AT_END = new RegExp(`${CHIP_PATTERN}$`);
const CHIP_AT_START = new RegExp(`^${CHIP_PATTERN}`);

export type PasteTable = Readonly<Record<string, string>>;

export interface ChipRange {
  id: string;
  start: number;
  end: number;
}

export function chipToken(id: number, lines: number): string {
  return `[Paste #${id} \u2013 ${lines} lines]`;
}

/** A global matcher for chip tokens (a fresh one each call: global regexps carry state). */
export function chipMatcher(): RegExp {
  return new RegExp(CHIP_PATTERN, "g");
}

/** Lines in a text with `\n` endings: "a\nb" and "a\nb\n" are 2 lines, "" is 0. O(n) without copying. */
export function countLines(text: string): number {
  if (text === "") return 0;
  let lines = 1;
  for (let index = text.indexOf("\n"); index >= 0; index = text.indexOf("\n", index + 1)) lines++;
  return text.endsWith("\n") ? lines - 1 : lines;
}

/** `\r\n` and lone `\r` (what many terminals paste) become `\n`; a text without `\r` is returned as is. */
export function normaliseNewlines(text: string): string {
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
}

function known(pastes: PasteTable, id: string): boolean {
  return Object.hasOwn(pastes, id);
}

/** The chip that ends exactly at `index`, if any. */
export function chipEndingAt(text: string, pastes: PasteTable, index: number): ChipRange | undefined {
  if (index <= 0 || text[index - 1] !== "]") return undefined;
  const from = Math.max(0, index - MAX_CHIP_LENGTH);
  const match = CHIP_AT_END.exec(text.slice(from, index));
  if (!match || !known(pastes, match[1] as string)) return undefined;
  return { id: match[1] as string, start: index - match[0].length, end: index };
}

/** The chip that starts exactly at `index`, if any. */
export function chipStartingAt(text: string, pastes: PasteTable, index: number): ChipRange | undefined {
  if (text[index] !== "[") return undefined;
  const match = CHIP_AT_START.exec(text.slice(index, index + MAX_CHIP_LENGTH));
  if (!match || !known(pastes, match[1] as string)) return undefined;
  return { id: match[1] as string, start: index, end: index + match[0].length };
}

/** Every chip that overlaps [from, to), found in a window just wide enough to catch chips cut by the edges. */
export function chipsIn(text: string, pastes: PasteTable, from: number, to: number): ChipRange[] {
  const start = Math.max(0, from - MAX_CHIP_LENGTH);
  const window = text.slice(start, Math.min(text.length, to + MAX_CHIP_LENGTH));
  const chips: ChipRange[] = [];
  for (const match of window.matchAll(chipMatcher())) {
    const id = match[1] as string;
    const chipStart = start + match.index;
    const chipEnd = chipStart + match[0].length;
    if (known(pastes, id) && chipEnd > from && chipStart < to) chips.push({ id, start: chipStart, end: chipEnd });
  }
  return chips;
}

/** The chip with start < index < end (the index would split it), if any. */
export function chipAround(text: string, pastes: PasteTable, index: number): ChipRange | undefined {
  return chipsIn(text, pastes, index, index + 1).find((chip) => chip.start < index && index < chip.end);
}

/** Replaces every known chip with its text, byte for byte. One pass; a text without chips is returned as is. */
export function expandChips(text: string, pastes: PasteTable): string {
  if (Object.keys(pastes).length === 0 || !text.includes("[Paste #")) return text;
  // A replacer function inserts its result literally ($& and friends are not interpreted).
  return text.replace(chipMatcher(), (token: string, id: string) => (known(pastes, id) ? (pastes[id] as string) : token));
}

/** The paste ids whose chips appear in `text`. */
export function chipIds(text: string): Set<string> {
  const ids = new Set<string>();
  if (!text.includes("[Paste #")) return ids;
  for (const match of text.matchAll(chipMatcher())) ids.add(match[1] as string);
  return ids;
}

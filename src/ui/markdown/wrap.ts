/**
 * Word wrapping by display width. Text arrives as styled spans (the style is applied after wrapping, so no
 * ANSI code is ever measured or cut); CJK and emoji count two columns and may break anywhere.
 */
import type measureString from "string-width";

export type Style = (text: string) => string;

export interface Span {
  text: string;
  style?: Style;
}

export interface Line {
  /** The styled text. */
  text: string;
  /** Display width, without ANSI codes. */
  width: number;
}

/** A hard line break inside a list of spans. */
export const HARD_BREAK: Span = { text: "\n" };

/**
 * Text every character of which is one column and one grapheme: printable ASCII and the few symbols the
 * transcript draws itself (bullets, rules, the prompt mark, check marks). Measured by its length: string-width's
 * first call compiles an emoji pattern (~25 ms of CPU), which a resumed session's first frame would pay.
 */
const PRINTABLE_ASCII = /^[\x20-\x7e·•…›─│└├┌┐┘┬┴┼✓✗←↑→↓]*$/;
let segmenter: Intl.Segmenter | undefined;

/**
 * string-width, once loaded. Loading it builds an emoji pattern and a grapheme segmenter (~25 ms of CPU), which
 * a resumed session's early frame (printable ASCII, as a rule) does not need: every face loads it before it
 * draws (loadDisplayWidths; Ink has loaded it by then anyway), the early preview only when its text needs it.
 */
let measureWide: typeof measureString | undefined;

/** Thrown when text other than printable ASCII is measured before loadDisplayWidths. */
export class DisplayWidthsNotLoadedError extends Error {
  constructor() {
    super("display widths are measured before string-width is loaded (loadDisplayWidths)");
  }
}

export async function loadDisplayWidths(): Promise<void> {
  measureWide ??= (await import("string-width")).default;
}

function stringWidth(text: string): number {
  if (!measureWide) throw new DisplayWidthsNotLoadedError();
  return measureWide(text);
}

export function displayWidth(text: string): number {
  return PRINTABLE_ASCII.test(text) ? text.length : stringWidth(text);
}

export function graphemes(text: string): string[] {
  if (PRINTABLE_ASCII.test(text)) return text.split("");
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return Array.from(segmenter.segment(text), (segment) => segment.segment);
}

export function expandTabs(text: string): string {
  return text.includes("\t") ? text.replace(/\t/g, "    ") : text;
}

/** Cuts plain text to `width` columns, ending with "…" when something was cut. */
export function truncateToWidth(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 0) return "";
  let out = "";
  let used = 0;
  for (const grapheme of graphemes(text)) {
    const size = displayWidth(grapheme);
    if (used + size > width - 1) break;
    out += grapheme;
    used += size;
  }
  return `${out}…`;
}

interface Atom {
  text: string;
  width: number;
  style: Style | undefined;
}

interface Unit {
  atoms: Atom[];
  width: number;
  kind: "word" | "space" | "break";
}

/** Splits spans into words, spaces and hard breaks; wide characters are words of their own. */
function toUnits(spans: readonly Span[]): Unit[] {
  const units: Unit[] = [];
  let glue = false; // may the next word piece join the previous word unit?
  for (const span of spans) {
    if (span.text === "\n") {
      units.push({ atoms: [], width: 0, kind: "break" });
      glue = false;
      continue;
    }
    for (const piece of span.text.split(/(\s+)/)) {
      if (piece === "") continue;
      if (/^\s/.test(piece)) {
        const text = piece.replace(/[\r\n\t\f\v]/g, " ");
        units.push({ atoms: [{ text, width: text.length, style: span.style }], width: text.length, kind: "space" });
        glue = false;
        continue;
      }
      const chunks = PRINTABLE_ASCII.test(piece) ? [{ text: piece, width: piece.length, wide: false }] : splitWide(piece);
      for (const chunk of chunks) {
        const atom: Atom = { text: chunk.text, width: chunk.width, style: span.style };
        const last = units.at(-1);
        if (glue && !chunk.wide && last?.kind === "word") {
          last.atoms.push(atom);
          last.width += atom.width;
        } else {
          units.push({ atoms: [atom], width: atom.width, kind: "word" });
        }
        glue = !chunk.wide;
      }
    }
  }
  return units;
}

/** Groups a word's graphemes into narrow runs and single wide characters. */
function splitWide(word: string): { text: string; width: number; wide: boolean }[] {
  const chunks: { text: string; width: number; wide: boolean }[] = [];
  let run = "";
  let runWidth = 0;
  for (const grapheme of graphemes(word)) {
    const size = stringWidth(grapheme);
    if (size >= 2) {
      if (run !== "") chunks.push({ text: run, width: runWidth, wide: false });
      run = "";
      runWidth = 0;
      chunks.push({ text: grapheme, width: size, wide: true });
    } else {
      run += grapheme;
      runWidth += size;
    }
  }
  if (run !== "") chunks.push({ text: run, width: runWidth, wide: false });
  return chunks;
}

function renderAtoms(atoms: readonly Atom[]): Line {
  let text = "";
  let width = 0;
  let index = 0;
  while (index < atoms.length) {
    const style = (atoms[index] as Atom).style;
    let run = "";
    while (index < atoms.length && (atoms[index] as Atom).style === style) {
      const atom = atoms[index] as Atom;
      run += atom.text;
      width += atom.width;
      index++;
    }
    text += style ? style(run) : run;
  }
  return { text, width };
}

/** Wraps spans to `width` columns: on spaces, between wide characters, and inside words longer than a line. */
export function wrapSpans(spans: readonly Span[], width: number): Line[] {
  const limit = Math.max(1, width);
  const lines: Line[] = [];
  let line: Atom[] = [];
  let lineWidth = 0;
  let pending: Atom[] = [];
  let pendingWidth = 0;
  let wrapped = false; // is the current line a continuation (where leading spaces are dropped)?
  const flush = (continuation: boolean) => {
    lines.push(renderAtoms(line));
    line = [];
    lineWidth = 0;
    pending = [];
    pendingWidth = 0;
    wrapped = continuation;
  };
  for (const unit of toUnits(spans)) {
    if (unit.kind === "break") {
      flush(false);
      continue;
    }
    if (unit.kind === "space") {
      if (lineWidth > 0 || !wrapped) {
        pending.push(...unit.atoms);
        pendingWidth += unit.width;
      }
      continue;
    }
    if (lineWidth > 0 && lineWidth + pendingWidth + unit.width > limit) flush(true);
    line.push(...pending);
    lineWidth += pendingWidth;
    pending = [];
    pendingWidth = 0;
    if (lineWidth + unit.width <= limit) {
      line.push(...unit.atoms);
      lineWidth += unit.width;
      continue;
    }
    // A word longer than a whole line: cut it by grapheme.
    for (const atom of unit.atoms) {
      for (const grapheme of graphemes(atom.text)) {
        const size = displayWidth(grapheme);
        if (lineWidth > 0 && lineWidth + size > limit) flush(true);
        line.push({ text: grapheme, width: size, style: atom.style });
        lineWidth += size;
      }
    }
  }
  if (line.length > 0 || lines.length === 0) lines.push(renderAtoms(line));
  return lines;
}

/** Wraps plain or uniformly styled text, keeping its own line breaks. */
export function wrapText(text: string, width: number, style?: Style): string[] {
  return text.split("\n").flatMap((paragraph) => wrapSpans([style ? { text: paragraph, style } : { text: paragraph }], width).map((line) => line.text));
}

export function pad(text: string, textWidth: number, width: number, align: "left" | "right" | "center" | null = "left"): string {
  const room = Math.max(0, width - textWidth);
  if (align === "right") return " ".repeat(room) + text;
  if (align === "center") return " ".repeat(Math.floor(room / 2)) + text + " ".repeat(room - Math.floor(room / 2));
  return text + " ".repeat(room);
}

const SGR = /\u001b\[[0-9;]*m/y;

/**
 * Cuts one already-styled code line into lines of at most `width` columns. Continuations start at the
 * line's own indentation (so wrapped code stays inside its block instead of falling to column 0) and
 * repeat the colours in force where the cut happened; every piece ends with its colours closed.
 */
export function wrapCodeLine(line: string, width: number): string[] {
  const plain = line.includes("\u001b") ? line.replace(/\u001b\[[0-9;]*m/g, "") : line;
  if (displayWidth(plain) <= width) return [line];
  const indentWidth = Math.min(/^ */.exec(plain)?.[0].length ?? 0, Math.floor(width / 2));
  const indent = " ".repeat(indentWidth);
  const out: string[] = [];
  let active: string[] = []; // the SGR codes since the last reset, replayed after a cut
  let current = "";
  let used = 0;
  let index = 0;
  const cut = () => {
    out.push(active.length > 0 ? `${current}\u001b[0m` : current);
    current = indent + active.join("");
    used = indentWidth;
  };
  while (index < line.length) {
    SGR.lastIndex = index;
    const code = SGR.exec(line);
    if (code) {
      const text = code[0];
      active = text === "\u001b[0m" || text === "\u001b[m" ? [] : [...active, text];
      current += text;
      index += text.length;
      continue;
    }
    const next = line.indexOf("\u001b", index);
    const run = line.slice(index, next === -1 ? line.length : next);
    index += run.length === 0 ? 1 : run.length;
    for (const grapheme of graphemes(run === "" ? (line[index - 1] as string) : run)) {
      const size = displayWidth(grapheme);
      if (used > indentWidth && used + size > width) cut();
      current += grapheme;
      used += size;
    }
  }
  out.push(current);
  return out;
}

/**
 * A row that one write makes (nearly every row: a line of history, of the composer, of an agent's progress),
 * built as Ink's get() would build it but without its cells: get() splits the line into grapheme cells, gives
 * each its own copy of the styles in force, measures each, then joins the cells back, working out the ANSI
 * codes from cell to cell (three Sets per cell). The text between two escape sequences comes out as it went in,
 * and the codes only change where the line has some, so this copies the text and works out the codes only
 * there, with ansi-tokenize's own functions (the library Ink's get() uses): the same text to the byte
 * (test/ui/ink-output-rows.test.ts), at a tenth of the cost for a new 120-column row while ten agents start.
 *
 * Lines this does not take (undefined: Ink's get() builds them): an escape that is not an SGR sequence (a link,
 * a lone ESC, C1 CSI), and a mark or joiner right after a sequence, which Ink's tokenizer drops with it.
 */
import { ansiCodesToString, diffAnsiCodes, reduceAnsiCodesIncremental, tokenize, type AnsiCode } from "@alcalzone/ansi-tokenize";

const ESC = "\u001b";
const C1_CSI = "\u009b";
const OPEN_BRACKET = 0x5b;
const LETTER_M = 0x6d;
const SEMICOLON = 0x3b;

/** A sequence's codes as the tokenizer reads them (a compound one split), by its text: a screen has few. */
const codesBySequence = new Map<string, AnsiCode[]>();
/** Made when first needed (a non-ASCII character right after a sequence): ICU's segmenter costs to set up. */
let graphemes: Intl.Segmenter | undefined;

function codesOf(sequence: string): AnsiCode[] {
  let codes = codesBySequence.get(sequence);
  if (codes === undefined) {
    codes = tokenize(sequence).filter((token): token is AnsiCode => token.type === "ansi");
    if (codesBySequence.size < 512) codesBySequence.set(sequence, codes);
  }
  return codes;
}

/** Where the SGR sequence starting at `esc` ends (the index after its `m`), or -1 when there is none. */
function sgrEnd(line: string, esc: number): number {
  if (line.charCodeAt(esc + 1) !== OPEN_BRACKET) return -1;
  for (let at = esc + 2; at < line.length; at++) {
    const code = line.charCodeAt(at);
    if (code === LETTER_M) return at + 1;
    if (code !== SEMICOLON && (code < 0x30 || code > 0x39)) return -1;
  }
  return -1;
}

/** Whether the character at `at` would join the `m` before it in one grapheme (only a non-ASCII one can). */
function joinsThePrevious(line: string, at: number): boolean {
  if (line.charCodeAt(at) < 0x80) return false;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  const first = graphemes
    .segment(`m${line.slice(at, at + 8)}`)
    [Symbol.iterator]()
    .next().value;
  return first !== undefined && first.segment.length > 1;
}

/** Ink's get() of a row of `blanks` blank cells with `line` written after them, or undefined when Ink must build it. */
export function singleWriteRow(blanks: number, line: string): string | undefined {
  if (line.includes(C1_CSI)) return undefined;
  let out = " ".repeat(blanks);
  let codes: AnsiCode[] = [];
  // The styles of the last cell written (the blanks have none); undefined before the first.
  let last: AnsiCode[] | undefined = blanks > 0 ? [] : undefined;
  let at = 0;
  while (at < line.length) {
    const esc = line.indexOf(ESC, at);
    const runEnd = esc === -1 ? line.length : esc;
    if (runEnd > at) {
      if (last === undefined) out += ansiCodesToString(codes);
      else if (last !== codes) out += ansiCodesToString(diffAnsiCodes(last, codes));
      out += line.slice(at, runEnd);
      last = codes;
    }
    if (esc === -1) break;
    const end = sgrEnd(line, esc);
    if (end === -1) return undefined;
    codes = reduceAnsiCodesIncremental(codes, codesOf(line.slice(esc, end)));
    at = end;
    if (at < line.length && joinsThePrevious(line, at)) return undefined;
  }
  if (last !== undefined) out += ansiCodesToString(diffAnsiCodes(last, []));
  return out.trimEnd();
}

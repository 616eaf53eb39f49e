/**
 * The tokens of a simple command line (see simple-parser.ts for what "simple" covers). Anything else makes
 * tokenize() return undefined, and the command goes to tree-sitter: being unsure is never a mistake here,
 * guessing is.
 */

/** A piece of a word: unquoted text, `'…'`, or `"…"` with nothing bash would expand inside. */
export interface WordPart {
  kind: "bare" | "single" | "double";
  /** Quotes included. */
  start: number;
  end: number;
}

export interface WordToken {
  kind: "word";
  start: number;
  end: number;
  parts: WordPart[];
}

export interface OperatorToken {
  kind: "operator";
  text: "&&" | "||" | "|" | ";";
  start: number;
  end: number;
}

export interface RedirectToken {
  kind: "redirect";
  /** `>`, `>>`, `>|`, `<`, `&>`, `&>>`, or a duplication (`>&`, `<&`, whose target must be a descriptor). */
  operator: string;
  start: number;
  end: number;
  /** The descriptor written right before the operator (`2>`). */
  descriptor?: { start: number; end: number };
}

export type Token = WordToken | OperatorToken | RedirectToken;

/** Unquoted characters that are plain text to bash and to tree-sitter's grammar alike (no globbing brackets, braces, history or comments). */
const BARE = /[A-Za-z0-9_@%+=:,./~*?-]/;
/** Inside double quotes: anything printable but what bash expands or unescapes there. */
const DOUBLE_QUOTED = /[^"$`\\]/;
/** A descriptor the grammar reads as one (`0>` is an argument 0 and a redirection, `00<` an error there). */
const DESCRIPTOR = /^[1-9][0-9]*$/;

function printable(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
}

/** The redirection operator at `index` (after any descriptor), or undefined for one this parser leaves alone (`<<`, `<(`, `<>`). */
function redirectOperator(text: string, index: number): string | undefined {
  const first = text[index];
  const next = text[index + 1];
  if (first === "&") return next === ">" ? (text[index + 2] === ">" ? "&>>" : "&>") : undefined;
  if (first === ">") {
    if (next === ">" || next === "&" || next === "|") return `>${next}`;
    return next === "(" ? undefined : ">";
  }
  if (next === "<" || next === "(" || next === ">") return undefined;
  return next === "&" ? "<&" : "<";
}

/** The word starting at `index`, or undefined when a character in it is beyond the simple subset. */
function readWord(text: string, index: number): WordToken | undefined {
  const parts: WordPart[] = [];
  let at = index;
  while (at < text.length) {
    const char = text[at] as string;
    if (char === "'" || char === '"') {
      const close = text.indexOf(char, at + 1);
      if (close < 0) return undefined;
      if (char === '"') {
        for (let inner = at + 1; inner < close; inner++) if (!DOUBLE_QUOTED.test(text[inner] as string)) return undefined;
        // `" "`: the grammar takes spaces alone between double quotes for blanks, not the string's content.
        if (close > at + 1 && text.slice(at + 1, close).trim() === "") return undefined;
      }
      parts.push({ kind: char === "'" ? "single" : "double", start: at, end: close + 1 });
      at = close + 1;
    } else if (BARE.test(char)) {
      const start = at;
      while (at < text.length && BARE.test(text[at] as string)) at++;
      parts.push({ kind: "bare", start, end: at });
    } else break;
  }
  return parts.length === 0 ? undefined : { kind: "word", start: index, end: at, parts };
}

export function tokenize(text: string): Token[] | undefined {
  if (!printable(text)) return undefined;
  const tokens: Token[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index] as string;
    const next = text[index + 1];
    if (char === " ") {
      index++;
    } else if ((char === "&" && next === "&") || (char === "|" && next === "|")) {
      tokens.push({ kind: "operator", text: char === "&" ? "&&" : "||", start: index, end: index + 2 });
      index += 2;
    } else if (char === "|" || char === ";") {
      // `|&`, `;;`, `;&`: a pipe of stderr too, or case syntax.
      if (next === "&" || next === ";") return undefined;
      tokens.push({ kind: "operator", text: char, start: index, end: index + 1 });
      index++;
    } else if (char === ">" || char === "<" || char === "&") {
      // A redirection glued to the word before it (`a>f`) is left to tree-sitter; so is `&` (background).
      const operator = redirectOperator(text, index);
      if (operator === undefined || (index > 0 && text[index - 1] !== " ")) return undefined;
      tokens.push({ kind: "redirect", operator, start: index, end: index + operator.length });
      index += operator.length;
    } else {
      const word = readWord(text, index);
      if (!word) return undefined;
      index = word.end;
      const after = text[index];
      if (after === ">" || after === "<") {
        // `2>`: digits written right before a redirection, at the start of a word, are its descriptor.
        const operator = redirectOperator(text, index);
        const digits = word.parts.length === 1 && word.parts[0]?.kind === "bare" && DESCRIPTOR.test(text.slice(word.start, word.end));
        if (operator === undefined || !digits || (word.start > 0 && text[word.start - 1] !== " ")) return undefined;
        tokens.push({ kind: "redirect", operator, start: index, end: index + operator.length, descriptor: { start: word.start, end: word.end } });
        index += operator.length;
      } else if (after === "&" && text[index + 1] !== "&") {
        return undefined; // `x&`, `x&>f`
      } else {
        tokens.push(word);
      }
    }
  }
  return tokens;
}

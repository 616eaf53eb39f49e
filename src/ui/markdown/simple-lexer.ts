/**
 * The tokens marked would give, for the plain Markdown most answers are made of, without loading marked: a
 * resumed session's last answer is drawn before Ink loads (cli/interactive.ts), and marked's first lexing
 * costs ~25 ms of CPU (V8 compiles each of its patterns on first use), a sixth of the time to that frame.
 *
 * Only a deliberately small subset is taken: paragraphs, `#` headings, flat `-` and `1.` lists, ``` fences,
 * and inline `code` and **strong** in their plainest form. Anything else (links, URLs, emphasis with `_` or
 * a single `*`, escapes, entities, HTML, tables, quotes, nesting, indentation, trailing spaces, tabs outside
 * fences) returns undefined and the caller lexes with marked. test/ui/simple-lexer.test.ts compares the
 * tokens with marked's over a corpus, and the rendered text over both what is taken and what is refused.
 */
import type { Token, Tokens } from "marked";

/** Characters and sequences that start a Markdown construct outside this subset (outside code spans). */
const OUTSIDE_SUBSET = /[\\<[\]&_~|@\t\r]|:\/\/|www\./i;
/**
 * How a paragraph line or a list item's text may start: nothing marked would read as a block (letters, Latin,
 * Greek, Cyrillic, kana and CJK among them, listed rather than \p{L}, whose pattern takes ~1 ms to compile).
 */
const PLAIN_START =
  /^(?:[A-Za-z0-9("'\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u0391-\u03c9\u0410-\u044f\u3041-\u3096\u30a1-\u30fa\u4e00-\u9fff]|\*\*[A-Za-z0-9]|`[^`])/;
const LIST_LIKE = /^\d+[.)]/;
const BULLET = /^- (\S.*)$/;
const ORDERED = /^(\d{1,9})\. (\S.*)$/;
const HEADING = /^(#{1,6}) (\S.*)$/;
const FENCE_OPEN = /^```([A-Za-z0-9+#.-]*)$/;
/** `**strong**` in its plainest form: opened after a space or "(", closed before a space, punctuation or the end, letters at both ends inside. */
const STRONG =
  /^\*\*([A-Za-z0-9\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u4e00-\u9fff](?:[^*`\n]*[A-Za-z0-9\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u4e00-\u9fff])?)\*\*(?=$|[\s.,;:!?)])/;
const CODE_SPAN = /^`([^`\s](?:[^`\n]*[^`\s])?)`(?!`)/;
/** A line inside a fence that marked could take for its end. */
const FENCE_LIKE = /^ {0,3}```/;

const text = (value: string): Tokens.Text => ({ type: "text", raw: value, text: value, escaped: false }) as Tokens.Text;

/** Inline tokens of a paragraph's or an item's text (lines joined by "\n", each a hard break), or undefined. */
function inlineTokens(source: string): Token[] | undefined {
  const tokens: Token[] = [];
  let plain = "";
  const flush = () => {
    if (plain !== "") tokens.push(text(plain));
    plain = "";
  };
  for (let at = 0; at < source.length;) {
    const rest = source.slice(at);
    const char = rest[0] as string;
    if (char === "\n") {
      flush();
      tokens.push({ type: "br", raw: "\n" } as Tokens.Br);
      at += 1;
      continue;
    }
    if (char === "`") {
      const code = CODE_SPAN.exec(rest);
      if (!code) return undefined;
      flush();
      tokens.push({ type: "codespan", raw: code[0], text: code[1] as string } as Tokens.Codespan);
      at += code[0].length;
      continue;
    }
    if (char === "*") {
      const strong = STRONG.exec(rest);
      const before = at === 0 ? " " : (source[at - 1] as string);
      if (!strong || !/[\s(]/.test(before) || OUTSIDE_SUBSET.test(strong[1] as string)) return undefined;
      flush();
      const inner = strong[1] as string;
      tokens.push({ type: "strong", raw: strong[0], text: inner, tokens: [text(inner)] } as Tokens.Strong);
      at += strong[0].length;
      continue;
    }
    const next = rest.search(/[\n`*]/);
    const run = next < 0 ? rest : rest.slice(0, next);
    if (OUTSIDE_SUBSET.test(run)) return undefined;
    plain += run;
    at += run.length;
  }
  flush();
  return tokens;
}

/** A line that may be (part of) a paragraph. */
const plainLine = (line: string) => PLAIN_START.test(line) && !LIST_LIKE.test(line) && !line.endsWith(" ");

/** marked's tokens for `source` (lexed with gfm and breaks), or undefined when it is outside the subset. */
export function lexSimpleMarkdown(source: string): Token[] | undefined {
  const lines = source.split("\n");
  const tokens: Token[] = [];
  let index = 0;
  /** The block before a blank line was a list: another list after it would join it (a loose list). */
  let afterList = false;
  /** The line before is a paragraph's: only a list starting at 1 may interrupt it. */
  let afterParagraph = false;
  while (index < lines.length) {
    const line = lines[index] as string;
    if (line.trim() === "") {
      if (line !== "") return undefined;
      index++;
      afterParagraph = false;
      continue;
    }
    const fence = FENCE_OPEN.exec(line);
    if (fence) {
      const end = lines.indexOf("```", index + 1);
      if (end < 0) return undefined;
      const code = lines.slice(index + 1, end);
      if (code.some((codeLine) => codeLine.includes("\r") || FENCE_LIKE.test(codeLine))) return undefined;
      tokens.push({ type: "code", raw: lines.slice(index, end + 1).join("\n"), lang: fence[1] as string, text: code.join("\n") } as Tokens.Code);
      index = end + 1;
      afterList = false;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const content = heading[2] as string;
      const inline = !content.endsWith("#") && !content.endsWith(" ") ? inlineTokens(content) : undefined;
      if (!inline) return undefined;
      tokens.push({ type: "heading", raw: line, depth: (heading[1] as string).length, text: content, tokens: inline } as Tokens.Heading);
      index++;
      afterList = false;
      continue;
    }
    if (BULLET.test(line) || ORDERED.test(line)) {
      const ordered = ORDERED.test(line);
      if (afterList || (ordered && afterParagraph && (ORDERED.exec(line)?.[1] as string) !== "1")) return undefined;
      const pattern = ordered ? ORDERED : BULLET;
      const items: Tokens.ListItem[] = [];
      const first = index;
      for (; index < lines.length && lines[index] !== ""; index++) {
        const item = pattern.exec(lines[index] as string);
        const content = item?.[ordered ? 2 : 1];
        const inline = content !== undefined && plainLine(content) ? inlineTokens(content) : undefined;
        if (!item || !inline || inline.some((token) => token.type === "br")) return undefined;
        const raw = `${lines[index]}${index + 1 < lines.length && lines[index + 1] !== "" ? "\n" : ""}`;
        items.push({
          type: "list_item",
          raw,
          task: false,
          loose: false,
          text: content,
          tokens: [{ type: "text", raw: content, text: content, tokens: inline }],
        } as Tokens.ListItem);
      }
      const start = ordered ? Number(ORDERED.exec(lines[first] as string)?.[1]) : "";
      tokens.push({ type: "list", raw: lines.slice(first, index).join("\n"), ordered, start, loose: false, items } as Tokens.List);
      afterList = true;
      afterParagraph = false;
      continue;
    }
    const first = index;
    for (; index < lines.length && lines[index] !== ""; index++) {
      const next = lines[index] as string;
      if (index > first && (BULLET.test(next) || ORDERED.test(next))) break;
      if (!plainLine(next)) return undefined;
    }
    const content = lines.slice(first, index).join("\n");
    const inline = inlineTokens(content);
    if (!inline) return undefined;
    tokens.push({ type: "paragraph", raw: content, text: content, tokens: inline } as Tokens.Paragraph);
    afterList = false;
    afterParagraph = index < lines.length && lines[index] !== "";
  }
  return tokens;
}

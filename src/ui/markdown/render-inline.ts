/** Inline Markdown tokens (emphasis, code spans, links…) → styled spans, ready for wrapping. */
import type { MarkedToken, Token } from "marked";
import { compose, type MarkdownStyles } from "./styles.js";
import { HARD_BREAK, type Span, type Style } from "./wrap.js";

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  copy: "©",
  reg: "®",
  trade: "™",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  larr: "←",
  rarr: "→",
};

export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith("#")) {
      const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

function push(spans: Span[], text: string, style: Style | undefined): void {
  if (text === "") return;
  spans.push(style ? { text, style } : { text });
}

/** Is the link text just its address (an autolink, or "[x.com](https://x.com)")? */
function isBareLink(text: string, href: string): boolean {
  if (text === href) return true;
  const stripped = href.replace(/^(https?:\/\/|mailto:)/i, "");
  return text === stripped || text === stripped.replace(/\/$/, "");
}

/** Soft line breaks inside a paragraph become spaces; `<br>` and "two spaces + newline" are hard breaks. */
export function inlineSpans(tokens: readonly Token[] | undefined, styles: MarkdownStyles, outer?: Style): Span[] {
  const spans: Span[] = [];
  appendInline(spans, tokens ?? [], styles, outer);
  return spans;
}

function appendInline(spans: Span[], tokens: readonly Token[], styles: MarkdownStyles, outer: Style | undefined): void {
  for (const generic of tokens) {
    const token = generic as MarkedToken;
    switch (token.type) {
      case "text":
        if (token.tokens && token.tokens.length > 0) appendInline(spans, token.tokens, styles, outer);
        else push(spans, decodeEntities(token.text).replace(/\n/g, " "), outer);
        break;
      case "escape":
        push(spans, token.text, outer);
        break;
      case "strong":
        appendInline(spans, token.tokens, styles, compose(outer, styles.bold));
        break;
      case "em":
        appendInline(spans, token.tokens, styles, compose(outer, styles.italic));
        break;
      case "del":
        appendInline(spans, token.tokens, styles, compose(outer, styles.strike));
        break;
      case "codespan":
        push(spans, token.text.replace(/\n/g, " "), compose(outer, styles.code));
        break;
      case "br":
        spans.push(HARD_BREAK);
        break;
      case "link": {
        if (isBareLink(token.text, token.href)) {
          push(spans, token.text, compose(outer, styles.link));
          break;
        }
        appendInline(spans, token.tokens, styles, compose(outer, styles.link));
        push(spans, ` (${token.href})`, styles.muted);
        break;
      }
      case "image":
        push(spans, `[image: ${token.text || "untitled"}]`, compose(outer, styles.italic));
        if (token.href) push(spans, ` (${token.href})`, styles.muted);
        break;
      case "checkbox":
        push(spans, token.checked ? "[x] " : "[ ] ", outer);
        break;
      case "html":
        if (/^<br\s*\/?>$/i.test(token.text.trim())) spans.push(HARD_BREAK);
        else push(spans, token.text.replace(/\n/g, " "), outer);
        break;
      default:
        push(spans, decodeEntities(generic.raw).replace(/\n/g, " "), outer);
        break;
    }
  }
}

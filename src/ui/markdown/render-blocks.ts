/** Block Markdown tokens → terminal lines, each at most `width` columns. */
import type { MarkedToken, Token, Tokens } from "marked";
import type { Theme } from "../theme.js";
import { highlightCode } from "./highlight.js";
import { inlineSpans } from "./render-inline.js";
import { renderTable } from "./render-table.js";
import type { MarkdownStyles } from "./styles.js";
import { displayWidth, expandTabs, wrapCodeLine, wrapSpans, wrapText } from "./wrap.js";

export interface BlockContext {
  theme: Theme;
  styles: MarkdownStyles;
  listDepth: number;
}

const BULLETS = ["•", "◦", "▪"];
const QUOTE_BAR = "│ ";
const CODE_INDENT = "  ";

/** Renders blocks separated by a blank line, or by none when `tight` (the children of a tight list item). */
export function renderBlocks(tokens: readonly Token[], width: number, context: BlockContext, tight = false): string[] {
  const out: string[] = [];
  for (const token of tokens) {
    const lines = renderBlock(token, width, context);
    if (lines.length === 0) continue;
    if (out.length > 0 && !tight) out.push("");
    out.push(...lines);
  }
  return out;
}

function renderBlock(generic: Token, width: number, context: BlockContext): string[] {
  const token = generic as MarkedToken;
  const { styles } = context;
  switch (token.type) {
    case "space":
    case "def":
      return [];
    case "heading": {
      const spans = inlineSpans(token.tokens, styles, styles.heading(token.depth));
      // Without colour a heading would look like a paragraph: keep its Markdown marker.
      if (!context.theme.color) spans.unshift({ text: `${"#".repeat(token.depth)} ` });
      return wrapSpans(spans, width).map((line) => line.text);
    }
    case "paragraph":
      return wrapSpans(inlineSpans(token.tokens, styles), width).map((line) => line.text);
    case "text":
      return wrapSpans(token.tokens ? inlineSpans(token.tokens, styles) : [{ text: token.text.replace(/\n/g, " ") }], width).map((line) => line.text);
    case "code":
      return renderCode(token, width, context);
    case "blockquote": {
      const inner = renderBlocks(token.tokens, Math.max(1, width - QUOTE_BAR.length), context);
      const bar = styles.muted(QUOTE_BAR.trimEnd());
      return inner.map((line) => (line === "" ? bar : `${bar} ${line}`));
    }
    case "list":
      return renderList(token, width, context);
    case "table":
      return renderTable(token, width, styles);
    case "hr":
      return [styles.muted("─".repeat(Math.max(1, width)))];
    case "html":
      return wrapText(token.text.replace(/\n+$/, ""), width);
    default:
      return generic.raw.trim() === "" ? [] : wrapText(generic.raw.replace(/\n+$/, ""), width);
  }
}

function renderCode(token: Tokens.Code, width: number, context: BlockContext): string[] {
  const language = token.lang?.trim().split(/\s+/)[0] || undefined;
  const code = expandTabs(token.text.replace(/\n+$/, ""));
  const highlighted = highlightCode(code, language, context.theme);
  // Wrapped here, not by Ink: a continuation keeps the line's indent instead of starting at column 0.
  const lines = highlighted.split("\n").flatMap((line) => (line === "" ? [""] : wrapCodeLine(CODE_INDENT + line, width)));
  return language ? [context.styles.muted(language), ...lines] : lines;
}

function renderList(token: Tokens.List, width: number, context: BlockContext): string[] {
  const start = typeof token.start === "number" ? token.start : 1;
  const numberWidth = String(start + token.items.length - 1).length;
  const bullet = BULLETS[context.listDepth % BULLETS.length] as string;
  const inner: BlockContext = { ...context, listDepth: context.listDepth + 1 };
  const out: string[] = [];
  token.items.forEach((item, index) => {
    const number = `${start + index}.`;
    let marker = token.ordered ? number.padStart(numberWidth + 1) : bullet;
    marker += item.task ? (item.checked ? " [x] " : " [ ] ") : " ";
    const indent = displayWidth(marker);
    const children = item.tokens.filter((child) => child.type !== "checkbox");
    const body = renderBlocks(children, Math.max(1, width - indent), inner, !item.loose);
    if (body.length === 0) body.push("");
    if (index > 0 && token.loose) out.push("");
    const styledMarker = context.styles.muted(marker);
    body.forEach((line, lineIndex) => {
      if (lineIndex === 0) out.push(styledMarker + line);
      else out.push(line === "" ? "" : " ".repeat(indent) + line);
    });
  });
  return out;
}

/**
 * Markdown → terminal text: wrapped to a width by display columns, styled with the theme (no ANSI at all
 * with a plain theme), code fences highlighted once the highlighter is loaded. Called for each frame of the
 * live tail and once per finished item, so it does one lex and one pass over the tokens, nothing more.
 */
import { Lexer } from "marked";
import type { Theme } from "../theme.js";
import { renderBlocks } from "./render-blocks.js";
import { stylesFor } from "./styles.js";

export interface RenderMarkdownOptions {
  /** Columns available; every line fits except code lines, which are kept as written. */
  width: number;
  theme: Theme;
}

const lexerOptions = { gfm: true, breaks: false } as const;

export function renderMarkdown(text: string, options: RenderMarkdownOptions): string {
  if (text.trim() === "") return "";
  const tokens = Lexer.lex(text, lexerOptions);
  const width = Math.max(1, Math.floor(options.width));
  return renderBlocks(tokens, width, { theme: options.theme, styles: stylesFor(options.theme), listDepth: 0 }).join("\n");
}

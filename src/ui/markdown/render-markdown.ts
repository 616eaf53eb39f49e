/**
 * Markdown → terminal text: wrapped to a width by display columns, styled with the theme (no ANSI at all
 * with a plain theme), code fences highlighted once the highlighter is loaded. Called for each frame of the
 * live tail and once per finished item, so it does one lex and one pass over the tokens, nothing more.
 */
import type { Lexer as MarkedLexer } from "marked";
import type { Theme } from "../theme.js";
import { renderBlocks } from "./render-blocks.js";
import { lexSimpleMarkdown } from "./simple-lexer.js";
import { stylesFor } from "./styles.js";
import { loadDisplayWidths, wrapText } from "./wrap.js";

let lexer: typeof MarkedLexer | undefined;
/** Inside withoutMarked: text is lexed by simple-lexer.ts, and text it does not take throws. */
let simpleOnly = false;

/** Thrown by renderMarkdown inside withoutMarked for text that needs marked (preloadMarkdown, then render again). */
export class MarkedNotLoadedError extends Error {
  constructor() {
    super("This Markdown needs marked: await preloadMarkdown() first.");
  }
}

/**
 * Runs `render` with Markdown lexed without marked until marked is loaded (a resumed session's early preview:
 * print-past.ts's earlyPreviewOfTail). The tokens are marked's own, so the text is the same as with marked;
 * what the simple lexer does not take throws MarkedNotLoadedError.
 */
export function withoutMarked<T>(render: () => T): T {
  const outer = simpleOnly;
  simpleOnly = true;
  try {
    return render();
  } finally {
    simpleOnly = outer;
  }
}

/**
 * Loads the Markdown lexer (after the TUI's first frame; until then text is shown plain, wrapped) and, unless
 * told not to (a resumed session's early preview, which loads them only for text other than printable ASCII),
 * string-width for display widths (wrap.ts).
 */
export async function preloadMarkdown(options: { displayWidths?: boolean } = {}): Promise<void> {
  await Promise.all([options.displayWidths === false ? undefined : loadDisplayWidths(), (async () => (lexer ??= (await import("marked")).Lexer))()]);
}

export interface RenderMarkdownOptions {
  /** Columns available; every line fits (long code lines wrap, keeping their indent). */
  width: number;
  theme: Theme;
}

// A single newline is a line break, as GitHub shows comments and as Copilot CLI shows answers: models
// write line by line and expect to be shown that way.
const lexerOptions = { gfm: true, breaks: true } as const;

/** One of each block and inline kind marked has a pattern for. */
const WARM_SAMPLE = [
  "# Heading",
  "Text with *emphasis*, **strong**, `code`, ~~struck~~ and a [link](https://example.com) <https://example.com>.",
  "- item\n- item\n  1. nested",
  "> quoted",
  "```\ncode\n```",
  "| a | b |\n|---|:-:|\n| 1 | 2 |",
  "Underlined\n---",
  "***",
].join("\n\n");

/**
 * Renders a sample once, in an idle moment (run-tui.tsx, once the session is open): marked compiles each of its
 * patterns on first use (25–50 ms of CPU), which would otherwise fall on the first answer, while keys are typed.
 */
export function warmMarkdown(theme: Theme): void {
  if (lexer) renderMarkdown(WARM_SAMPLE, { width: 80, theme });
}

export function renderMarkdown(text: string, options: RenderMarkdownOptions): string {
  if (text.trim() === "") return "";
  const width = Math.max(1, Math.floor(options.width));
  if (!lexer && simpleOnly) {
    const tokens = lexSimpleMarkdown(text);
    if (!tokens) throw new MarkedNotLoadedError();
    return renderBlocks(tokens, width, { theme: options.theme, styles: stylesFor(options.theme), listDepth: 0 }).join("\n");
  }
  if (!lexer)
    return text
      .split("\n")
      .flatMap((line) => wrapText(line, width))
      .join("\n");
  const tokens = lexer.lex(text, lexerOptions);
  return renderBlocks(tokens, width, { theme: options.theme, styles: stylesFor(options.theme), listDepth: 0 }).join("\n");
}

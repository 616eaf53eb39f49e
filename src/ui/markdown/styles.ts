/**
 * String styles derived from the theme, for text that is styled before Ink sees it (Markdown, diffs).
 * Every style is the identity when the theme has no colour, so plain output carries no ANSI code at all.
 */
import type { Theme } from "../theme.js";
import type { Style } from "./wrap.js";

export const identity: Style = (text) => text;

/** A style for an Ink colour name ("cyan", "gray", "#ff8800"), or the identity. */
export function paint(theme: Theme, color: string | undefined): Style {
  if (!theme.color || !color) return identity;
  if (color.startsWith("#")) return theme.chalk.hex(color);
  const candidate: unknown = Reflect.get(theme.chalk, color);
  return typeof candidate === "function" ? (text: string) => String(Reflect.apply(candidate, undefined, [text])) : identity;
}

export function compose(outer: Style | undefined, inner: Style | undefined): Style | undefined {
  if (!outer) return inner;
  if (!inner) return outer;
  return (text) => outer(inner(text));
}

export interface MarkdownStyles {
  bold: Style;
  italic: Style;
  strike: Style;
  underline: Style;
  dim: Style;
  muted: Style;
  accent: Style;
  code: Style;
  link: Style;
  success: Style;
  error: Style;
  warning: Style;
  user: Style;
  heading(depth: number): Style;
}

const cache = new WeakMap<Theme, MarkdownStyles>();

export function stylesFor(theme: Theme): MarkdownStyles {
  const cached = cache.get(theme);
  if (cached) return cached;
  const on = theme.color;
  const chalk = theme.chalk;
  const accent = paint(theme, theme.accent);
  const bold = on ? chalk.bold : identity;
  const h1 = on ? (text: string) => accent(chalk.bold.underline(text)) : identity;
  const h2 = on ? (text: string) => accent(chalk.bold(text)) : identity;
  const styles: MarkdownStyles = {
    bold,
    italic: on ? chalk.italic : identity,
    strike: on ? chalk.strikethrough : identity,
    underline: on ? chalk.underline : identity,
    dim: on ? chalk.dim : identity,
    muted: paint(theme, theme.muted),
    accent,
    // Theme has no slot for code; yellow (the warning colour) is the usual terminal choice for inline code.
    code: paint(theme, theme.warning),
    link: on ? (text: string) => accent(chalk.underline(text)) : identity,
    success: paint(theme, theme.success),
    error: paint(theme, theme.error),
    warning: paint(theme, theme.warning),
    user: paint(theme, theme.user),
    heading: (depth) => (depth <= 1 ? h1 : depth === 2 ? h2 : bold),
  };
  cache.set(theme, styles);
  return styles;
}

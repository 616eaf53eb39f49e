/**
 * GFM tables: columns sized to their content, shrunk (with wrapped cells) to fit the width; when even that is
 * too narrow, each row is shown as "header: value" lines.
 */
import type { Tokens } from "marked";
import { inlineSpans } from "./render-inline.js";
import type { MarkdownStyles } from "./styles.js";
import { displayWidth, pad, wrapSpans, type Span } from "./wrap.js";

const SEPARATOR = " │ ";
const MIN_COLUMN = 3;

function spansWidth(spans: readonly Span[]): number {
  let width = 0;
  for (const span of spans) width += displayWidth(span.text);
  return width;
}

/** Narrows the widest columns first until the total fits `available`. */
function fitColumns(natural: number[], available: number): number[] {
  const widths = natural.map((width) => Math.max(MIN_COLUMN, width));
  let excess = widths.reduce((sum, width) => sum + width, 0) - available;
  while (excess > 0) {
    let widest = 0;
    for (let index = 1; index < widths.length; index++) if ((widths[index] as number) > (widths[widest] as number)) widest = index;
    const current = widths[widest] as number;
    if (current <= MIN_COLUMN) break;
    // The gap to the next widest column, so a very long column shrinks in one step.
    const next = Math.max(MIN_COLUMN, ...widths.filter((_, index) => index !== widest).filter((width) => width < current));
    const step = Math.max(1, Math.min(excess, current - next));
    widths[widest] = current - step;
    excess -= step;
  }
  return widths;
}

export function renderTable(token: Tokens.Table, width: number, styles: MarkdownStyles): string[] {
  const header = token.header.map((cell) => inlineSpans(cell.tokens, styles, styles.bold));
  const rows = token.rows.map((row) => row.map((cell) => inlineSpans(cell.tokens, styles)));
  const columns = header.length;
  if (columns === 0) return [];
  const available = width - SEPARATOR.length * (columns - 1);
  if (available < columns * MIN_COLUMN) return renderAsRecords(header, rows, width, styles);

  const natural = header.map((cell, column) => Math.max(spansWidth(cell), ...rows.map((row) => spansWidth(row[column] ?? []))));
  const fits = natural.reduce((sum, value) => sum + value, 0) <= available;
  const widths = fits ? natural.map((value) => Math.max(1, value)) : fitColumns(natural, available);
  const align = token.align;

  const renderRow = (cells: readonly Span[][]): string[] => {
    const wrapped = widths.map((columnWidth, column) => wrapSpans(cells[column] ?? [], columnWidth));
    const height = Math.max(...wrapped.map((lines) => lines.length));
    const out: string[] = [];
    for (let lineIndex = 0; lineIndex < height; lineIndex++) {
      const parts = widths.map((columnWidth, column) => {
        const line = wrapped[column]?.[lineIndex];
        return line ? pad(line.text, line.width, columnWidth, align[column] ?? "left") : " ".repeat(columnWidth);
      });
      out.push(parts.join(styles.muted(SEPARATOR)).trimEnd());
    }
    return out;
  };

  const rule = styles.muted(widths.map((columnWidth) => "─".repeat(columnWidth)).join("─┼─"));
  return [...renderRow(header), rule, ...rows.flatMap((row) => renderRow(row))];
}

/** The fallback for tables too wide to lay out: one "header: value" block per row. */
function renderAsRecords(header: readonly Span[][], rows: readonly Span[][][], width: number, styles: MarkdownStyles): string[] {
  const out: string[] = [];
  rows.forEach((row, rowIndex) => {
    if (rowIndex > 0) out.push(styles.muted("─".repeat(Math.max(1, Math.min(width, 20)))));
    header.forEach((label, column) => {
      const spans: Span[] = [...label, { text: ": " }, ...(row[column] ?? [])];
      out.push(...wrapSpans(spans, width).map((line) => line.text));
    });
  });
  return out;
}

/**
 * /context in the transcript: a grid of 50 cells (2 % of the prompt limit each), one glyph and colour per
 * part (system prompt, memory's board when on, tools, MCP tools, messages, free), with the legend beside it. Glyphs differ, so the
 * grid reads without colour too.
 */
import type { MarkdownStyles } from "../markdown/styles.js";
import { truncateToWidth, type Style } from "../markdown/wrap.js";
import type { ContextUsageView } from "../state/transcript-types.js";

const COLUMNS = 10;
const ROWS = 5;

function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

/** Cells per part by largest remainder; a part with any tokens gets at least one cell. */
export function allocateCells(parts: readonly number[], total: number, cells: number): number[] {
  if (total <= 0) return parts.map(() => 0);
  const exact = parts.map((part) => (part / total) * cells);
  const counts = exact.map((value, index) => Math.max((parts[index] ?? 0) > 0 ? 1 : 0, Math.floor(value)));
  let left = cells - counts.reduce((sum, count) => sum + count, 0);
  const order = exact.map((value, index) => ({ index, rest: value - Math.floor(value) })).sort((a, b) => b.rest - a.rest);
  for (let i = 0; left > 0 && order.length > 0; i = (i + 1) % order.length, left--) {
    const { index } = order[i] as { index: number };
    counts[index] = (counts[index] ?? 0) + 1;
  }
  // Minimums can overshoot on a nearly empty limit: take the excess from the largest part.
  while (left < 0) {
    const largest = counts.indexOf(Math.max(...counts));
    counts[largest] = (counts[largest] ?? 0) - 1;
    left++;
  }
  return counts;
}

export function contextGridLines(usage: ContextUsageView, model: string, footnote: string, width: number, styles: MarkdownStyles): string[] {
  const free = Math.max(0, usage.tokenLimit - usage.currentTokens);
  const parts: { label: string; glyph: string; style: Style; tokens: number }[] = [
    { label: "System prompt", glyph: "◆", style: styles.accent, tokens: usage.systemTokens },
    ...(usage.contextBoardTokens !== undefined ? [{ label: "Memory (board)", glyph: "◇", style: styles.accent, tokens: usage.contextBoardTokens }] : []),
    { label: "Tools", glyph: "■", style: styles.success, tokens: usage.toolsTokens },
    { label: "MCP tools", glyph: "▲", style: styles.warning, tokens: usage.mcpToolsTokens },
    { label: `Messages (${usage.messagesLength})`, glyph: "●", style: styles.user, tokens: usage.messagesTokens },
    { label: "Free", glyph: "·", style: styles.muted, tokens: free },
  ];
  const counts = allocateCells(
    parts.map((part) => part.tokens),
    usage.tokenLimit,
    COLUMNS * ROWS,
  );
  const cells = parts.flatMap((part, index) => Array.from({ length: counts[index] ?? 0 }, () => part.style(part.glyph)));
  const percent = (tokens: number) => (usage.tokenLimit > 0 ? `${((tokens / usage.tokenLimit) * 100).toFixed(1)}%` : "–");
  const labelWidth = Math.max(...parts.map((part) => part.label.length));
  // Styles go on after measuring: widths are of the plain text.
  const legendPlain = (part: (typeof parts)[number]) =>
    `${part.glyph} ${part.label.padEnd(labelWidth)} ${formatTokens(part.tokens).padStart(6)} ${percent(part.tokens).padStart(6)}`;
  const legend = (part: (typeof parts)[number]) =>
    `${part.style(part.glyph)} ${part.label.padEnd(labelWidth)} ${formatTokens(part.tokens).padStart(6)} ${styles.muted(percent(part.tokens).padStart(6))}`;
  const gridWidth = COLUMNS * 2 - 1;
  const beside = width >= gridWidth + 3 + legendPlain(parts[0] as (typeof parts)[number]).length;
  const header = `Context · ${model} · ${formatTokens(usage.currentTokens)}/${formatTokens(usage.tokenLimit)} tokens (${percent(usage.currentTokens)})`;
  const grid = Array.from({ length: ROWS }, (_, row) => cells.slice(row * COLUMNS, (row + 1) * COLUMNS).join(" "));
  const body = beside
    ? Array.from({ length: Math.max(ROWS, parts.length) }, (_, row) => {
        const line = grid[row] ?? " ".repeat(gridWidth);
        return parts[row] ? `${line}   ${legend(parts[row] as (typeof parts)[number])}` : line;
      })
    : [...grid, ...parts.map((part) => (legendPlain(part).length <= width ? legend(part) : truncateToWidth(legendPlain(part), width)))];
  return [styles.bold(truncateToWidth(header, width)), ...body, ...(footnote !== "" ? [styles.muted(truncateToWidth(footnote, width))] : [])];
}

/** /context as text (for `-p`, the log and JSON readers; the TUI draws its own grid from session.usage_info). */
import type { ContextBreakdown } from "./token-accounting.js";

export function formatTokenCount(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

const percent = (part: number, whole: number): string => (whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : "–");

export function contextReportText(report: ContextBreakdown): string {
  const { tokenLimit } = report;
  const rows: [string, number][] = [
    ["System prompt", report.systemTokens],
    ...(report.contextBoard
      ? [[`Memory (board, budget ${formatTokenCount(report.contextBoard.budgetTokens)})`, report.contextBoard.tokens] as [string, number]]
      : []),
    ["Tools", report.toolsTokens],
    ["MCP tools", report.mcpToolsTokens],
    [`Messages (${report.messagesLength})`, report.messagesTokens],
    ["Free", report.freeTokens],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return [
    `Context: ${formatTokenCount(report.currentTokens)}/${formatTokenCount(tokenLimit)} tokens (${percent(report.currentTokens, tokenLimit)}) · ${report.model}`,
    ...rows.map(([label, tokens]) => `  ${label.padEnd(width)}  ${formatTokenCount(tokens).padStart(6)}  ${percent(tokens, tokenLimit).padStart(6)}`),
    report.compactAt !== undefined
      ? `  Compacts automatically at ${formatTokenCount(report.compactAt)} (${percent(report.compactAt, tokenLimit)}); /compact does it now.`
      : "  Automatic compaction is off; /compact compacts now.",
  ].join("\n");
}

/** /usage as text: what this session has cost and changed so far, from the session's metrics (no model call). */
import { formatTokenCount } from "../compaction/context-report.js";
import type { SessionMetrics } from "../session-metrics.js";

export function formatElapsed(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes}m ${String(Math.round((ms % 60_000) / 1000)).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m`;
}

export function usageReportText(metrics: SessionMetrics, now = Date.now()): string {
  const { codeChanges } = metrics;
  const tokens = metrics.tokens;
  const models = Object.entries(metrics.modelMetrics);
  const cached = models.reduce((sum, [, metric]) => sum + (metric.usage.cacheReadTokens ?? 0), 0);
  const nameWidth = Math.max(5, ...models.map(([name]) => name.length));
  const files = codeChanges.filesModified;
  const lines = [
    "Usage in this session (since it was opened by this process):",
    `  Session time   ${formatElapsed(now - metrics.startTime)}`,
    `  API time       ${formatElapsed(metrics.totalApiDurationMs)}`,
    `  Requests       ${metrics.requests}`,
    `  Tokens         ${formatTokenCount(tokens.inputTokens)} in (${formatTokenCount(cached)} cached) · ${formatTokenCount(tokens.outputTokens)} out`,
  ];
  if (models.length > 0) {
    lines.push("  By model:");
    for (const [name, metric] of models) {
      const { usage } = metric;
      lines.push(
        `    ${name.padEnd(nameWidth)}  ${String(metric.requests.count).padStart(4)} req  ${formatTokenCount(usage.inputTokens).padStart(6)} in  ${formatTokenCount(usage.cacheReadTokens ?? 0).padStart(6)} cached  ${formatTokenCount(usage.outputTokens).padStart(6)} out`,
      );
    }
  }
  lines.push(`  Code changes   +${codeChanges.linesAdded} -${codeChanges.linesRemoved} in ${files.length} file${files.length === 1 ? "" : "s"}`);
  for (const file of files.slice(0, 20)) lines.push(`    ${file}`);
  if (files.length > 20) lines.push(`    … and ${files.length - 20} more`);
  return lines.join("\n");
}

/**
 * /usage as text: what this session has cost and changed, from the session's metrics (no model call). A
 * resumed session adds what its earlier processes recorded at their shutdown (prior-usage.ts).
 */
import { formatTokenCount } from "../compaction/context-report.js";
import type { ModelMetric, SessionMetrics } from "../session-metrics.js";

export function formatElapsed(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes}m ${String(Math.round((ms % 60_000) / 1000)).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m`;
}

function mergedModels(metrics: SessionMetrics): [string, ModelMetric][] {
  const merged: Record<string, ModelMetric> = {};
  for (const source of [metrics.earlier?.modelMetrics ?? {}, metrics.modelMetrics]) {
    for (const [model, metric] of Object.entries(source)) {
      const into = (merged[model] ??= { requests: { count: 0, cost: 0 }, usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0 } });
      into.requests.count += metric.requests.count;
      into.usage.inputTokens += metric.usage.inputTokens;
      into.usage.outputTokens += metric.usage.outputTokens;
      into.usage.cacheReadTokens = (into.usage.cacheReadTokens ?? 0) + (metric.usage.cacheReadTokens ?? 0);
    }
  }
  return Object.entries(merged);
}

export function usageReportText(metrics: SessionMetrics, now = Date.now()): string {
  const { earlier } = metrics;
  const models = mergedModels(metrics);
  const sum = (pick: (metric: ModelMetric) => number) => models.reduce((total, [, metric]) => total + pick(metric), 0);
  const files = [...new Set([...(earlier?.filesModified ?? []), ...metrics.codeChanges.filesModified])];
  const added = metrics.codeChanges.linesAdded + (earlier?.linesAdded ?? 0);
  const removed = metrics.codeChanges.linesRemoved + (earlier?.linesRemoved ?? 0);
  const nameWidth = Math.max(5, ...models.map(([name]) => name.length));
  const lines = [
    earlier ? `Usage in this session (this run and ${earlier.processes} earlier):` : "Usage in this session:",
    `  Session time   ${formatElapsed(now - metrics.startTime + (earlier?.activeMs ?? 0))}`,
    `  API time       ${formatElapsed(metrics.totalApiDurationMs + (earlier?.apiDurationMs ?? 0))}`,
    `  Requests       ${metrics.requests + (earlier?.requests ?? 0)}`,
    `  Tokens         ${formatTokenCount(sum((metric) => metric.usage.inputTokens))} in (${formatTokenCount(sum((metric) => metric.usage.cacheReadTokens ?? 0))} cached) · ${formatTokenCount(sum((metric) => metric.usage.outputTokens))} out`,
  ];
  if (models.length > 0) {
    lines.push("  By model:");
    for (const [name, { requests, usage }] of models) {
      lines.push(
        `    ${name.padEnd(nameWidth)}  ${String(requests.count).padStart(4)} req  ${formatTokenCount(usage.inputTokens).padStart(6)} in  ${formatTokenCount(usage.cacheReadTokens ?? 0).padStart(6)} cached  ${formatTokenCount(usage.outputTokens).padStart(6)} out`,
      );
    }
  }
  lines.push(`  Code changes   +${added} -${removed} in ${files.length} file${files.length === 1 ? "" : "s"}`);
  for (const file of files.slice(0, 20)) lines.push(`    ${file}`);
  if (files.length > 20) lines.push(`    … and ${files.length - 20} more`);
  return lines.join("\n");
}

/**
 * /usage as text: what this session has cost and changed, from the usage in the session's state (no model
 * call). A resumed session adds what its earlier processes recorded at their shutdown.
 */
import { formatTokenCount } from "../compaction/context-report.js";
import { addModelMetrics, type ModelMetric, type UsageState } from "../state/usage-state.js";

export function formatElapsed(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes}m ${String(Math.round((ms % 60_000) / 1000)).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m`;
}

export function usageReportText(usage: UsageState, now = Date.now()): string {
  const { current } = usage;
  // Once this process's shutdown is on record it is one of the earlier ones: not counted twice.
  const earlier = usage.earlier;
  const live = usage.currentRecorded ? undefined : current;
  const models = Object.entries(addModelMetrics(earlier?.modelMetrics ?? {}, live?.modelMetrics ?? {}));
  const sum = (pick: (metric: ModelMetric) => number) => models.reduce((total, [, metric]) => total + pick(metric), 0);
  const files = [...new Set([...(earlier?.filesModified ?? []), ...(live?.codeChanges.filesModified ?? [])])];
  const added = (live?.codeChanges.linesAdded ?? 0) + (earlier?.linesAdded ?? 0);
  const removed = (live?.codeChanges.linesRemoved ?? 0) + (earlier?.linesRemoved ?? 0);
  const nameWidth = Math.max(5, ...models.map(([name]) => name.length));
  const lines = [
    earlier ? `Usage in this session (this run and ${earlier.processes} earlier):` : "Usage in this session:",
    `  Session time   ${formatElapsed((live ? now - live.startTime : 0) + (earlier?.activeMs ?? 0))}`,
    `  API time       ${formatElapsed((live?.apiDurationMs ?? 0) + (earlier?.apiDurationMs ?? 0))}`,
    `  Requests       ${(live?.requests ?? 0) + (earlier?.requests ?? 0)}`,
    `  Tokens         ${formatTokenCount(sum((metric) => metric.usage.inputTokens))} in (${formatTokenCount(sum((metric) => metric.usage.cacheReadTokens ?? 0))} cached) · ${formatTokenCount(sum((metric) => metric.usage.outputTokens))} out`,
  ];
  if (models.length > 0) {
    lines.push("  By model:");
    for (const [name, { requests, usage: tokens }] of models) {
      lines.push(
        `    ${name.padEnd(nameWidth)}  ${String(requests.count).padStart(4)} req  ${formatTokenCount(tokens.inputTokens).padStart(6)} in  ${formatTokenCount(tokens.cacheReadTokens ?? 0).padStart(6)} cached  ${formatTokenCount(tokens.outputTokens).padStart(6)} out`,
      );
    }
  }
  lines.push(`  Code changes   +${added} -${removed} in ${files.length} file${files.length === 1 ? "" : "s"}`);
  for (const file of files.slice(0, 20)) lines.push(`    ${file}`);
  if (files.length > 20) lines.push(`    … and ${files.length - 20} more`);
  return lines.join("\n");
}

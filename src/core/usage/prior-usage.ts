/**
 * What earlier processes of a resumed session used, read from their session.shutdown events (each records
 * its own process's requests, tokens, API time and code changes), so /usage can tell the whole session.
 * A process that crashed wrote no shutdown: its share is unknown and left out.
 */
import type { SessionEvent } from "../../protocol/events/index.js";
import type { ModelMetric } from "../session-metrics.js";

export interface PriorUsage {
  processes: number;
  requests: number;
  apiDurationMs: number;
  /** Wall-clock time the earlier processes ran. */
  activeMs: number;
  modelMetrics: Record<string, ModelMetric>;
  linesAdded: number;
  linesRemoved: number;
  filesModified: string[];
}

export function priorUsage(events: readonly SessionEvent[]): PriorUsage | undefined {
  let prior: PriorUsage | undefined;
  const files = new Set<string>();
  for (const event of events) {
    if (event.type !== "session.shutdown" || event.agentId) continue;
    const data = event.data;
    prior ??= { processes: 0, requests: 0, apiDurationMs: 0, activeMs: 0, modelMetrics: {}, linesAdded: 0, linesRemoved: 0, filesModified: [] };
    prior.processes++;
    prior.apiDurationMs += data.totalApiDurationMs;
    const ended = Date.parse(event.timestamp);
    if (Number.isFinite(ended) && ended >= data.sessionStartTime) prior.activeMs += ended - data.sessionStartTime;
    for (const [model, metric] of Object.entries(data.modelMetrics)) {
      const into = (prior.modelMetrics[model] ??= { requests: { count: 0, cost: 0 }, usage: { inputTokens: 0, outputTokens: 0 } });
      into.requests.count += metric.requests.count;
      prior.requests += metric.requests.count;
      into.usage.inputTokens += metric.usage.inputTokens;
      into.usage.outputTokens += metric.usage.outputTokens;
      if (metric.usage.cacheReadTokens) into.usage.cacheReadTokens = (into.usage.cacheReadTokens ?? 0) + metric.usage.cacheReadTokens;
    }
    prior.linesAdded += data.codeChanges.linesAdded;
    prior.linesRemoved += data.codeChanges.linesRemoved;
    for (const file of data.codeChanges.filesModified) files.add(file);
  }
  if (prior) prior.filesModified = [...files];
  return prior;
}

/** What a session has cost and changed, for session.shutdown and the headless result line. */
import type { CodeChanges } from "../protocol/events/index.js";

export interface ModelMetric {
  requests: { count: number; cost: number };
  usage: { inputTokens: number; outputTokens: number };
}

export class SessionMetrics {
  readonly startTime = Date.now();
  totalApiDurationMs = 0;
  requests = 0;
  readonly modelMetrics: Record<string, ModelMetric> = {};
  private linesAdded = 0;
  private linesRemoved = 0;
  private readonly filesModified = new Set<string>();

  recordCall(call: { model: string; inputTokens: number; outputTokens: number; durationMs: number }): void {
    this.requests++;
    this.totalApiDurationMs += call.durationMs;
    const metric = (this.modelMetrics[call.model] ??= { requests: { count: 0, cost: 0 }, usage: { inputTokens: 0, outputTokens: 0 } });
    metric.requests.count++;
    metric.usage.inputTokens += call.inputTokens;
    metric.usage.outputTokens += call.outputTokens;
  }

  recordCodeChange(change: { path: string; linesAdded: number; linesRemoved: number }): void {
    this.linesAdded += change.linesAdded;
    this.linesRemoved += change.linesRemoved;
    this.filesModified.add(change.path);
  }

  get codeChanges(): CodeChanges {
    return { linesAdded: this.linesAdded, linesRemoved: this.linesRemoved, filesModified: [...this.filesModified] };
  }

  get tokens(): { inputTokens: number; outputTokens: number } {
    let inputTokens = 0;
    let outputTokens = 0;
    for (const metric of Object.values(this.modelMetrics)) {
      inputTokens += metric.usage.inputTokens;
      outputTokens += metric.usage.outputTokens;
    }
    return { inputTokens, outputTokens };
  }
}

/** What a session has cost and changed, for session.shutdown and the headless result line. */
import type { CodeChanges } from "../protocol/events/index.js";
import type { PriorUsage } from "./usage/prior-usage.js";

export interface ModelMetric {
  requests: { count: number; cost: number };
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens?: number };
}

export class SessionMetrics {
  readonly startTime = Date.now();
  totalApiDurationMs = 0;
  requests = 0;
  readonly modelMetrics: Record<string, ModelMetric> = {};
  private linesAdded = 0;
  private linesRemoved = 0;
  private readonly filesModified = new Set<string>();

  /** Responses that arrived whole, in this process. */
  completedCalls = 0;
  /** Background agents started in this process. */
  backgroundAgents = 0;

  /** A resumed session: what its earlier processes used (for /usage; never part of this process's shutdown record). */
  earlier: PriorUsage | undefined;

  private metric(model: string): ModelMetric {
    return (this.modelMetrics[model] ??= { requests: { count: 0, cost: 0 }, usage: { inputTokens: 0, outputTokens: 0 } });
  }

  /** A request was sent (a retry, or one that was interrupted or failed, counts too). */
  recordRequest(model: string): void {
    this.requests++;
    this.metric(model).requests.count++;
  }

  /** A model call ended: its time, and what it cost when it completed (tokens are 0 when it did not). */
  recordCall(call: { model: string; inputTokens: number; outputTokens: number; cacheReadTokens?: number; durationMs: number; completed?: boolean }): void {
    this.totalApiDurationMs += call.durationMs;
    if (call.completed !== false) this.completedCalls++;
    const metric = this.metric(call.model);
    metric.usage.inputTokens += call.inputTokens;
    metric.usage.outputTokens += call.outputTokens;
    if (call.cacheReadTokens) metric.usage.cacheReadTokens = (metric.usage.cacheReadTokens ?? 0) + call.cacheReadTokens;
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

/**
 * What this process has cost and changed, as the engine records it: the source of session.shutdown and of
 * the session.usage_checkpoint sent after each model call and code change (faces read the totals from the
 * session's state, which folds those events).
 */
import type { CodeChanges, EventData } from "../protocol/events/index.js";
import type { ModelMetric } from "./state/usage-state.js";

export type { ModelMetric } from "./state/usage-state.js";

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

  /** `changed`: told after each model call and code change (the session announces a checkpoint). */
  constructor(private readonly changed: (metrics: SessionMetrics) => void = () => undefined) {}

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
    this.changed(this);
  }

  recordCodeChange(change: { path: string; linesAdded: number; linesRemoved: number }): void {
    this.linesAdded += change.linesAdded;
    this.linesRemoved += change.linesRemoved;
    this.filesModified.add(change.path);
    this.changed(this);
  }

  get codeChanges(): CodeChanges {
    return { linesAdded: this.linesAdded, linesRemoved: this.linesRemoved, filesModified: [...this.filesModified] };
  }

  /** The per-model metrics as they are now (a copy: the records go on changing). */
  snapshotModelMetrics(): Record<string, ModelMetric> {
    const copy: Record<string, ModelMetric> = {};
    for (const [model, { requests, usage }] of Object.entries(this.modelMetrics)) copy[model] = { requests: { ...requests }, usage: { ...usage } };
    return copy;
  }

  /** The totals so far, as session.usage_checkpoint carries them. */
  checkpoint(): EventData<"session.usage_checkpoint"> {
    return {
      totalNanoAiu: 0,
      totalPremiumRequests: 0,
      requests: this.requests,
      completedCalls: this.completedCalls,
      totalApiDurationMs: this.totalApiDurationMs,
      modelMetrics: this.snapshotModelMetrics(),
      codeChanges: this.codeChanges,
    };
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

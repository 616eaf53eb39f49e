/**
 * The session's usage as a fold of its events: this process's totals from its session.usage_checkpoint
 * events (and, once it ends, its session.shutdown record), and what earlier processes used from their
 * session.shutdown events. A process that crashed wrote no shutdown: its share is unknown and left out.
 */
import type { CodeChanges, SessionEvent, SessionEventOf } from "../../protocol/events/index.js";

export interface ModelMetric {
  requests: { count: number; cost: number };
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens?: number };
}

/** What one process of the session has used. */
export interface ProcessUsage {
  /** When the process opened the session (ms since the epoch). */
  startTime: number;
  /** Requests sent, retries and failed ones included. */
  requests: number;
  /** Model calls that got a whole response. */
  completedCalls: number;
  apiDurationMs: number;
  /** Keyed by the model asked for. */
  modelMetrics: Readonly<Record<string, ModelMetric>>;
  codeChanges: CodeChanges;
  /** Background agents started. */
  backgroundAgents: number;
}

/** What the earlier processes of a resumed session used, from their shutdown records. */
export interface EarlierUsage {
  processes: number;
  requests: number;
  apiDurationMs: number;
  /** Wall-clock time the earlier processes ran. */
  activeMs: number;
  modelMetrics: Readonly<Record<string, ModelMetric>>;
  linesAdded: number;
  linesRemoved: number;
  filesModified: readonly string[];
}

export interface UsageState {
  current: ProcessUsage;
  /** Every process whose shutdown is on record (this one too, once it has ended). */
  earlier: EarlierUsage | undefined;
  /** This process's session.shutdown has been folded into `earlier`. */
  currentRecorded: boolean;
}

export function freshProcessUsage(startTime: number): ProcessUsage {
  return {
    startTime,
    requests: 0,
    completedCalls: 0,
    apiDurationMs: 0,
    modelMetrics: {},
    codeChanges: { linesAdded: 0, linesRemoved: 0, filesModified: [] },
    backgroundAgents: 0,
  };
}

export function initialUsage(startTime: number): UsageState {
  return { current: freshProcessUsage(startTime), earlier: undefined, currentRecorded: false };
}

/** A new process opened the session: its own totals start at zero. */
export function beginProcessUsage(usage: UsageState, startTime: number): UsageState {
  return { ...usage, current: freshProcessUsage(startTime), currentRecorded: false };
}

/** The per-model metrics of both, added. */
export function addModelMetrics(a: Readonly<Record<string, ModelMetric>>, b: Readonly<Record<string, ModelMetric>>): Record<string, ModelMetric> {
  const merged: Record<string, ModelMetric> = {};
  for (const source of [a, b]) {
    for (const [model, metric] of Object.entries(source)) {
      const into = (merged[model] ??= { requests: { count: 0, cost: 0 }, usage: { inputTokens: 0, outputTokens: 0 } });
      into.requests = { count: into.requests.count + metric.requests.count, cost: into.requests.cost + metric.requests.cost };
      const cacheReadTokens = (into.usage.cacheReadTokens ?? 0) + (metric.usage.cacheReadTokens ?? 0);
      into.usage = {
        inputTokens: into.usage.inputTokens + metric.usage.inputTokens,
        outputTokens: into.usage.outputTokens + metric.usage.outputTokens,
        ...(cacheReadTokens > 0 ? { cacheReadTokens } : {}),
      };
    }
  }
  return merged;
}

/** Input and output tokens over every model. */
export function totalTokens(metrics: Readonly<Record<string, ModelMetric>>): { inputTokens: number; outputTokens: number } {
  let inputTokens = 0;
  let outputTokens = 0;
  for (const metric of Object.values(metrics)) {
    inputTokens += metric.usage.inputTokens;
    outputTokens += metric.usage.outputTokens;
  }
  return { inputTokens, outputTokens };
}

function recordShutdown(usage: UsageState, event: SessionEventOf<"session.shutdown">): UsageState {
  const { data } = event;
  const requests = Object.values(data.modelMetrics).reduce((sum, metric) => sum + metric.requests.count, 0);
  const ended = Date.parse(event.timestamp);
  const before = usage.earlier;
  const files = new Set([...(before?.filesModified ?? []), ...data.codeChanges.filesModified]);
  return {
    // The shutdown is this process's record: what the checkpoints said, and the same numbers on resume.
    current: {
      ...usage.current,
      startTime: data.sessionStartTime,
      requests,
      completedCalls: data.completedCalls ?? usage.current.completedCalls,
      apiDurationMs: data.totalApiDurationMs,
      modelMetrics: data.modelMetrics,
      codeChanges: data.codeChanges,
    },
    earlier: {
      processes: (before?.processes ?? 0) + 1,
      requests: (before?.requests ?? 0) + requests,
      apiDurationMs: (before?.apiDurationMs ?? 0) + data.totalApiDurationMs,
      activeMs: (before?.activeMs ?? 0) + (Number.isFinite(ended) && ended >= data.sessionStartTime ? ended - data.sessionStartTime : 0),
      modelMetrics: addModelMetrics(before?.modelMetrics ?? {}, data.modelMetrics),
      linesAdded: (before?.linesAdded ?? 0) + data.codeChanges.linesAdded,
      linesRemoved: (before?.linesRemoved ?? 0) + data.codeChanges.linesRemoved,
      filesModified: [...files],
    },
    currentRecorded: true,
  };
}

function checkpoint(usage: UsageState, data: SessionEventOf<"session.usage_checkpoint">["data"]): UsageState {
  const { current } = usage;
  return {
    ...usage,
    current: {
      ...current,
      requests: data.requests ?? current.requests,
      completedCalls: data.completedCalls ?? current.completedCalls,
      apiDurationMs: data.totalApiDurationMs ?? current.apiDurationMs,
      modelMetrics: data.modelMetrics ?? current.modelMetrics,
      codeChanges: data.codeChanges ?? current.codeChanges,
    },
  };
}

/** The usage slice's part of the reducer: unchanged (the same object) for every other event. */
export function reduceUsage(usage: UsageState, event: SessionEvent): UsageState {
  switch (event.type) {
    case "session.start":
      return event.agentId ? usage : beginProcessUsage(usage, Date.parse(event.timestamp));
    case "session.resume":
      // A client joining the open session (alreadyInUse set) starts no new process.
      return event.agentId || event.data.alreadyInUse !== undefined ? usage : beginProcessUsage(usage, Date.parse(event.timestamp));
    case "session.usage_checkpoint":
      return event.agentId ? usage : checkpoint(usage, event.data);
    case "session.shutdown":
      return event.agentId ? usage : recordShutdown(usage, event);
    case "subagent.started":
      return event.data.executionMode === "background"
        ? { ...usage, current: { ...usage.current, backgroundAgents: usage.current.backgroundAgents + 1 } }
        : usage;
    default:
      return usage;
  }
}

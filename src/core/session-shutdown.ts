/**
 * The end of a session: after its work is stopped, the sessionEnd hooks run (and any still running are
 * reported) while the log is open; then session.shutdown is written with the session's totals and the log
 * is closed.
 */
import type { Conversation } from "./conversation.js";
import type { EventSink } from "./event-sink.js";
import type { SessionHooks } from "./session-hooks.js";
import type { SessionMetrics } from "./session-metrics.js";

export interface ShutdownParts {
  sink: EventSink;
  hooks?: SessionHooks;
  metrics: SessionMetrics;
  conversation: Conversation;
  model: string;
  dispose(): void;
}

export type ShutdownType = "routine" | "error";

/** Resolves once session.shutdown is written and the log closed. */
export function finishSession(parts: ShutdownParts, shutdownType: ShutdownType, errorReason: string | undefined): Promise<void> {
  const { hooks } = parts;
  if (!hooks) {
    writeShutdown(parts, shutdownType, errorReason);
    return Promise.resolve();
  }
  return hooks
    .sessionEnd(parts.sink.emit, shutdownType === "error" ? "error" : "complete")
    .then(() => hooks.settle())
    .finally(() => writeShutdown(parts, shutdownType, errorReason));
}

function writeShutdown(parts: ShutdownParts, shutdownType: ShutdownType, errorReason: string | undefined): void {
  const { metrics } = parts;
  parts.sink.emit("session.shutdown", {
    shutdownType,
    ...(errorReason ? { errorReason } : {}),
    totalPremiumRequests: 0,
    totalApiDurationMs: metrics.totalApiDurationMs,
    sessionStartTime: metrics.startTime,
    codeChanges: metrics.codeChanges,
    modelMetrics: metrics.snapshotModelMetrics(),
    currentModel: parts.model,
    currentTokens: parts.conversation.estimateTokens(),
    completedCalls: metrics.completedCalls,
  });
  parts.sink.close();
  parts.dispose();
}

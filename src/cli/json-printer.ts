/** --output-format json: every event (ephemeral ones included) as one JSON line, then a result line. */
import type { RunResult } from "../protocol/commands.js";
import type { SessionEvent } from "../protocol/events/index.js";
import type { SessionMetrics } from "../core/session-metrics.js";
import { serializeEventLine } from "../session/serialize.js";
import type { Output } from "./text-printer.js";

export class JsonPrinter {
  constructor(private readonly stdout: Output) {}

  readonly onEvent = (event: SessionEvent): void => {
    this.stdout.write(serializeEventLine(event));
  };

  finish(result: RunResult, metrics: SessionMetrics, sessionId: string, exitCode: number, durationMs: number): void {
    const tokens = metrics.tokens;
    this.stdout.write(
      serializeEventLine({
        type: "result",
        timestamp: new Date().toISOString(),
        sessionId,
        exitCode,
        outcome: result.outcome,
        answer: result.summary ?? result.finalMessage,
        ...(result.error ? { error: result.error } : {}),
        usage: {
          premiumRequests: 0,
          requests: metrics.requests,
          inputTokens: tokens.inputTokens,
          outputTokens: tokens.outputTokens,
          totalApiDurationMs: metrics.totalApiDurationMs,
          sessionDurationMs: durationMs,
          codeChanges: metrics.codeChanges,
        },
      }),
    );
  }
}

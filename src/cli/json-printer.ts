/** --output-format json: every event (ephemeral ones included) as one JSON line, then a result line. */
import type { RunResult } from "../protocol/commands.js";
import type { SessionEvent } from "../protocol/events/index.js";
import { totalTokens, type ProcessUsage } from "../core/index.js";
import { serializeEventLine } from "../session/serialize.js";
import { CommandReportWatch } from "./command-report.js";
import type { Output } from "./text-printer.js";
import { isoTime } from "../util/iso-time.js";

/**
 * The result line of a run that never started (configuration, resume or usage error), so a script reading
 * JSON never has to parse stderr.
 */
export function writeFailureResult(stdout: Output, exitCode: number, error: { kind: string; message: string }): void {
  stdout.write(serializeEventLine({ type: "result", timestamp: isoTime(), exitCode, outcome: "error", answer: "", error }));
}

export class JsonPrinter {
  private readonly watch = new CommandReportWatch();
  /** A slash command's report (`-p "/usage"`): the result line's answer when the run has no other. */
  private readonly reports: string[] = [];

  /** `silent` (-s): only the result line. */
  constructor(
    private readonly stdout: Output,
    private readonly options: { silent?: boolean } = {},
  ) {}

  readonly onEvent = (event: SessionEvent): void => {
    const report = this.watch.reportOf(event);
    if (report !== undefined) this.reports.push(report);
    if (this.options.silent) return;
    this.stdout.write(serializeEventLine(event));
  };

  /** `usage`: what this run used (the session state's usage of this process). */
  finish(result: RunResult, usage: ProcessUsage, sessionId: string, exitCode: number, durationMs: number, planPath?: string): void {
    const tokens = totalTokens(usage.modelMetrics);
    this.stdout.write(
      serializeEventLine({
        type: "result",
        timestamp: isoTime(),
        sessionId,
        exitCode,
        outcome: result.outcome,
        answer: result.summary ?? (result.finalMessage !== "" ? result.finalMessage : this.reports.join("\n")),
        ...(result.error ? { error: result.error } : {}),
        ...(planPath ? { planPath } : {}),
        usage: {
          premiumRequests: 0,
          requests: usage.requests,
          inputTokens: tokens.inputTokens,
          outputTokens: tokens.outputTokens,
          totalApiDurationMs: usage.apiDurationMs,
          sessionDurationMs: durationMs,
          codeChanges: usage.codeChanges,
          ...(usage.backgroundAgents > 0 ? { backgroundAgents: usage.backgroundAgents } : {}),
        },
      }),
    );
  }
}

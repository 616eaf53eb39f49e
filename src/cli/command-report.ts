/**
 * Which events of a `-p` run are a slash command's report, the product `agent -p "/usage"` was run for:
 * whatever the engine said as session.info while a top-level command ran (/context, /usage, /env, /session
 * info, /reset-allowed-tools…), and the outcome of a compaction the person asked for (/compact). Both
 * printers use it, so the text goes to stdout (even with --silent) and into the JSON result's answer.
 */
import type { SessionEvent } from "../protocol/events/index.js";
import { compactionLine } from "../core/compaction/compaction-line.js";

export class CommandReportWatch {
  private readonly running = new Set<string>();

  /** The report text this event carries, or undefined when it is not part of a command's report. */
  reportOf(event: SessionEvent): string | undefined {
    if (event.agentId) return undefined;
    switch (event.type) {
      case "command.execute":
        this.running.add(event.data.requestId);
        return undefined;
      case "command.completed":
        this.running.delete(event.data.requestId);
        return undefined;
      case "session.info":
        return this.running.size > 0 ? event.data.message : undefined;
      case "session.compaction_complete":
        // A failed one is a warning, not a report.
        return event.data.trigger === "manual" && event.data.success ? compactionLine(event.data) : undefined;
      default:
        return undefined;
    }
  }
}

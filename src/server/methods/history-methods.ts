/**
 * The conversation's history over the SDK, beyond compaction itself: a handoff summary (read from the
 * session's log) and the abort of a manual compaction. A compaction here runs inside the command or turn that
 * asked for it and ends with it (an interrupt stops it), so there is never one in flight to abort on its own.
 */
import { handoffSummary } from "../../core/index.js";
import type { ClientLink, ServedSession } from "../served-session.js";
import type { HISTORY_METHODS } from "./history-and-interest-names.js";
import { sessionIdOf } from "../wire.js";

export function historyMethods(
  owned: (link: ClientLink, sessionId: string) => ServedSession,
  eventsFileOf: (sessionId: string) => string,
): Record<(typeof HISTORY_METHODS)[number], (link: ClientLink, params: unknown) => unknown> {
  return {
    "session.history.summarizeForHandoff": async (link, params) => {
      const sessionId = sessionIdOf(params);
      owned(link, sessionId);
      // Loaded when first asked: the reader brings the whole event catalog's schemas.
      const { readEventLog } = await import("../../session/event-log-reader.js");
      return { summary: handoffSummary(readEventLog(eventsFileOf(sessionId)).events) };
    },
    "session.history.abortManualCompaction": (link, params) => {
      owned(link, sessionIdOf(params));
      return { aborted: false };
    },
  };
}

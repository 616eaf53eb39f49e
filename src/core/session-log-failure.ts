/**
 * The session log could not be written (a full disk, a read-only home, a quota): the session stops, since
 * nothing it did from then on could be resumed, and says what failed, where, and how to go on.
 */
import type { RunResult } from "../protocol/commands.js";
import type { Emit } from "./event-sink.js";

export const SESSION_LOG_ERROR = "session_log";

export function sessionLogFailureMessage(error: Error, sessionId: string): string {
  return `${error.message}. The session was stopped; what was written before stays readable. Once the log can be written again (free space, permissions), continue with: agent --resume ${sessionId}`;
}

/** What a prompt sent after the failure gets: the same error, said again where the person is looking. */
export function sessionLogFailureResult(error: Error, sessionId: string, emit: Emit): RunResult {
  const message = sessionLogFailureMessage(error, sessionId);
  emit("session.error", { errorType: SESSION_LOG_ERROR, message });
  return { outcome: "error", finalMessage: "", continuations: 0, error: { kind: SESSION_LOG_ERROR, message } };
}

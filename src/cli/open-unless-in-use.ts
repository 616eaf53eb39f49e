/**
 * Opening the session the command line asked for when another agent process may hold it (one writer per
 * session, see session-lock.ts): --resume of a session in use is refused with a message (exit code
 * `sessionInUse`); --continue, which only means "the latest one", starts a fresh session with a note instead.
 */
import { loadEngine, type OpenedSession, type OpenSessionOptions } from "../core/index.js";
import { SessionLockedError } from "../session/session-lock.js";

export type OpenOutcome = { ok: true; value: OpenedSession; note?: string } | { ok: false; message: string };

export function continueNote(error: SessionLockedError): string {
  return `the latest session here (${error.sessionId}) is open in another agent process (pid ${error.pid}); started a new session instead.`;
}

export async function openUnlessInUse(options: OpenSessionOptions, isContinue: boolean): Promise<OpenOutcome> {
  const { openSession } = await loadEngine();
  try {
    return { ok: true, value: await openSession(options) };
  } catch (error) {
    if (!(error instanceof SessionLockedError) || options.resumeId === undefined) throw error;
    if (!isContinue) return { ok: false, message: error.message };
    return { ok: true, value: await openSession({ ...options, resumeId: undefined }), note: continueNote(error) };
  }
}

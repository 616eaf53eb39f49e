/**
 * The only owner of the sessions a process holds, by id: every face opens, attaches to, closes and deletes
 * sessions here (the TUI switches between them, the servers hold one per client session at once). One rule
 * set: a session another live process holds is never opened (--continue's "new session instead" is the
 * `ifLocked` fallback) nor deleted; one this process holds is closed before it is deleted.
 *
 * The engine itself loads on the first `open`, so a face may use this module before its first frame.
 */
import { SecretFilter } from "../util/secret-filter.js";
import type { SessionMetadata } from "../session/session-metadata.js";
import { SessionLockedError, sessionLockHolder } from "../session/session-lock.js";
import type { SessionStore } from "../session/session-store.js";
import type { AgentSession } from "./agent-session.js";
import type { OpenedSession, OpenSessionOptions } from "./open-session.js";
import { forkSession } from "./session-admin/fork-session.js";
import type { ForkOutcome } from "../protocol/rewind.js";

/** What opening a session another process holds does: refuse (--resume), or start a new session with a note (--continue). */
export type IfLocked = "fail" | "new-session";

/** A face's overrides for one session (which one, its name, its listeners, its client's answers…). */
export type OpenRequest = Partial<OpenSessionOptions> & { ifLocked?: IfLocked };

export interface CloseOptions {
  /** How long a running turn may take to end after the interrupt (so its log says how it ended); none by default. */
  graceMs?: number;
  /** Why the session ends, when it ends on an error. */
  reason?: string;
}

/** How long a server gives an interrupted turn to end before its session is closed anyway. */
export const TURN_END_GRACE_MS = 5_000;

function continueNote(error: SessionLockedError): string {
  return `the latest session here (${error.sessionId}) is open in another agent process (pid ${error.pid}); started a new session instead.`;
}

/**
 * Whether the session to resume may be opened, before anything is loaded (the TUI asks before it touches the
 * terminal): the id to open (none: a new session) and a note, or a SessionLockedError when refused.
 */
export function openableSession(store: SessionStore, resumeId: string | undefined, ifLocked: IfLocked): { resumeId?: string; note?: string } {
  const holder = resumeId ? sessionLockHolder(store.dirOf(resumeId)) : undefined;
  if (resumeId === undefined || holder === undefined) return resumeId ? { resumeId } : {};
  const error = new SessionLockedError(resumeId, holder);
  if (ifLocked === "fail") throw error;
  return { note: continueNote(error) };
}

export class SessionManager {
  private readonly sessions = new Map<string, AgentSession>();

  /** Secret values a client registered: no session of this manager writes or shows them. */
  private readonly secrets: SecretFilter;

  constructor(readonly defaults: OpenSessionOptions) {
    this.secrets = defaults.secrets ?? new SecretFilter();
  }

  /** Registers secret values (the SDK's secrets.addFilterValues) for every session, open or opened later; how many are filtered now. */
  addSecretValues(values: readonly string[]): number {
    return this.secrets.add(values);
  }

  get store(): SessionStore {
    return this.defaults.store;
  }

  /**
   * Opens a new session, or resumes one by id; the manager holds it until it is closed. A session held
   * elsewhere (another process, or already open here) is refused, or with `ifLocked: "new-session"` replaced
   * by a new session, and `note` says so.
   */
  async open(request: OpenRequest = {}): Promise<OpenedSession & { note?: string }> {
    const { ifLocked = "fail", ...options } = request;
    try {
      return await this.openHere(options);
    } catch (error) {
      if (!(error instanceof SessionLockedError) || options.resumeId === undefined || ifLocked === "fail") throw error;
      return { ...(await this.openHere({ ...options, resumeId: undefined })), note: continueNote(error) };
    }
  }

  private async openHere(request: Partial<OpenSessionOptions>): Promise<OpenedSession> {
    if (request.resumeId && this.sessions.has(request.resumeId)) throw new SessionLockedError(request.resumeId, process.pid);
    const { openSession } = await import("./open-session.js");
    const opened = await openSession({ ...this.defaults, ...request, secrets: this.secrets, deleteSession: (id) => this.delete(id) });
    const { session } = opened;
    this.sessions.set(session.id, session);
    session.subscribe((event) => {
      if (event.type === "session.shutdown" && !event.agentId && this.sessions.get(session.id) === session) this.sessions.delete(session.id);
    });
    return opened;
  }

  /** A session already open in this process, for another face or client to use (it subscribes for its events). */
  attach(id: string): AgentSession | undefined {
    return this.sessions.get(id);
  }

  get(id: string): AgentSession | undefined {
    return this.sessions.get(id);
  }

  get openIds(): string[] {
    return [...this.sessions.keys()];
  }

  /** Every stored conversation, most recent first. */
  list(): Promise<SessionMetadata[]> {
    return this.store.conversations();
  }

  /**
   * Ends a session (it stays resumable): a running turn is interrupted and given `graceMs` to end, then the
   * session shuts down; resolves once its end hooks ran and its log is closed. The shutdown itself is
   * dispatched before this returns when there is no grace to wait for.
   */
  async close(id: string, options: CloseOptions = {}): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    if (options.graceMs && session.busy) await interruptAndWait(session, options.graceMs);
    if (this.sessions.get(id) === session) this.sessions.delete(id);
    session.dispatch({ type: "shutdown", ...(options.reason ? { reason: options.reason } : {}) });
    await session.whenEnded();
  }

  /** A new stored session whose log copies this one's, whole or up to (not including) an event (sessions.fork). */
  fork(id: string, options: { toEventId?: string; name?: string } = {}): Promise<ForkOutcome> {
    return forkSession(this.defaults.store, id, options);
  }

  closeAll(options: CloseOptions = {}): Promise<void> {
    return Promise.all(this.openIds.map((id) => this.close(id, options))).then(() => undefined);
  }

  /**
   * Removes a stored session. Never one another live process holds; one this process holds is closed first.
   * Resolves with why it was not deleted, or undefined once it is gone.
   */
  async delete(id: string, options: Pick<CloseOptions, "graceMs"> = {}): Promise<string | undefined> {
    if (!this.store.exists(id)) return `Session not found: ${id}`;
    if (this.sessions.has(id)) await this.close(id, options);
    const holder = sessionLockHolder(this.store.dirOf(id));
    if (holder !== undefined) return `Session ${id} is open ${holder === process.pid ? "here" : `in another process (pid ${holder})`}; close it first.`;
    this.store.delete(id);
    return undefined;
  }
}

/** Interrupts the session's turn and waits for it to go idle, at most `graceMs`. */
function interruptAndWait(session: AgentSession, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      off();
      resolve();
    };
    const timer = setTimeout(done, graceMs);
    const off = session.subscribe((event) => {
      if (event.type === "session.idle" && !event.agentId) done();
    });
    session.dispatch({ type: "interrupt" });
  });
}

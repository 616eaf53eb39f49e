/**
 * The sessions one process holds, by id: the TUI switches between them (/clear, /resume), the server face
 * holds one per client session at once. Opening, resuming, listing, closing and deleting all go through here.
 */
import type { SessionMetadata } from "../session/session-metadata.js";
import type { SessionStore } from "../session/session-store.js";
import type { AgentSession } from "./agent-session.js";
import { openSession, type OpenedSession, type OpenSessionOptions } from "./open-session.js";

/** What differs between the sessions a manager opens: which one, its name, its listeners. */
export type OpenRequest = Partial<
  Pick<
    OpenSessionOptions,
    | "resumeId"
    | "silentResume"
    | "sessionId"
    | "name"
    | "listeners"
    | "mode"
    | "provider"
    | "createProvider"
    | "providerConfig"
    | "cwd"
    | "canAnswer"
    | "permissions"
    | "extraTools"
    | "extraInstructions"
    | "systemPromptShape"
    | "extraAgents"
    | "excludedBuiltinAgents"
    | "defaultAgentExcludedTools"
    | "hooks"
    | "mcp"
    | "agents"
    /** A client's own tool backends (an editor over ACP). */
    | "toolBackends"
  >
>;

export class SessionManager {
  private readonly open = new Map<string, AgentSession>();

  constructor(private readonly defaults: OpenSessionOptions) {}

  get store(): SessionStore {
    return this.defaults.store;
  }

  /** Opens a new session, or resumes one by id; the manager holds it until it is closed. */
  async openSession(request: OpenRequest = {}): Promise<OpenedSession> {
    if (request.resumeId && this.open.has(request.resumeId)) throw new Error(`Session ${request.resumeId} is already open.`);
    const opened = await openSession({ ...this.defaults, ...request });
    this.open.set(opened.session.id, opened.session);
    opened.session.subscribe((event) => {
      if (event.type === "session.shutdown" && !event.agentId) this.open.delete(opened.session.id);
    });
    return opened;
  }

  get(id: string): AgentSession | undefined {
    return this.open.get(id);
  }

  get openIds(): string[] {
    return [...this.open.keys()];
  }

  /** Every stored conversation, most recent first. */
  list(): Promise<SessionMetadata[]> {
    return this.defaults.store.conversations();
  }

  /** Shuts a session down (it stays resumable). */
  close(id: string, reason?: string): void {
    this.open.get(id)?.dispatch({ type: "shutdown", ...(reason ? { reason } : {}) });
    this.open.delete(id);
  }

  /** Shuts a session down if it is open, then removes it from disk. */
  delete(id: string): void {
    this.close(id);
    this.defaults.store.delete(id);
  }

  closeAll(reason?: string): void {
    for (const id of [...this.open.keys()]) this.close(id, reason);
  }
}

/** What a method family is handed: the session the calling client holds (throws for any other). */
import type { AgentSession } from "../../core/agent-session.js";
import type { ClientLink, ServedSession } from "../served-session.js";

export type Owned = (link: ClientLink, sessionId: string) => ServedSession;

export type MethodTable<M extends string> = Record<M, (link: ClientLink, params: unknown) => unknown>;

/** The engine's session behind a served one this client holds. */
export function ownedSession(owned: Owned, link: ClientLink, sessionId: string): AgentSession {
  return owned(link, sessionId).session as AgentSession;
}

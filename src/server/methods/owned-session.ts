/** What a method family is handed: the session the calling client holds (throws for any other). */
import type { SessionView } from "../../core/index.js";
import type { ClientLink, ServedSession } from "../served-session.js";

export type Owned = (link: ClientLink, sessionId: string) => ServedSession;

export type MethodTable<M extends string> = Record<M, (link: ClientLink, params: unknown) => unknown>;

/** The session behind a served one this client holds, as a face sees it. */
export function ownedSession(owned: Owned, link: ClientLink, sessionId: string): SessionView {
  const session = owned(link, sessionId).session;
  if (!session) throw new Error(`Session not found: ${sessionId}`);
  return session;
}

/**
 * A method family set up when one of its methods is first called: its module (and the zod schemas it builds) loads
 * then, not with the engine, so a session's create and send do not wait for families most sessions never call.
 */
export function lazyFamily<M extends string>(names: readonly M[], load: () => Promise<MethodTable<M>>): MethodTable<M> {
  let table: Promise<MethodTable<M>> | undefined;
  const handlers = {} as MethodTable<M>;
  for (const name of names) handlers[name] = async (link, params) => (await (table ??= load()))[name](link, params);
  return handlers;
}

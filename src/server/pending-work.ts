/**
 * A client's resume of a session open in this server: it joins the session (join_client: its tools, the
 * session.resume), and the work a client that went away left waiting is continued or abandoned as Copilot does
 * (continuePendingWork). Work another client drives is joined as it is.
 */
import type { SessionView } from "../core/index.js";
import type { ClientAbilities, ClientLink, ServedSession } from "./served-session.js";
import type { SessionConfig } from "./wire.js";

/**
 * Joins the client to the open session. Work left waiting by a client that went away (a suspended session:
 * nobody holds it) is continued only when this client says so (the questions still open are put to it);
 * otherwise it is abandoned, interrupted before the client gets its answer. Throws when the session refuses
 * the client (a tool name another client provides).
 */
export async function joinOpenSession(
  link: ClientLink,
  config: SessionConfig,
  open: ServedSession,
  session: SessionView,
  abilities: ClientAbilities,
): Promise<void> {
  const alreadyInUse = open.heldByOthers(link);
  const continuePendingWork = config.continuePendingWork === true;
  const holder = open.holds(link);
  const abandon = session.state.busy && !alreadyInUse && !continuePendingWork && !holder;
  open.attach(link, abilities, config.commands);
  const problem = session.dispatch({
    type: "join_client",
    client: open.clientId(link) ?? "",
    ...(config.tools ? { tools: config.tools } : {}),
    alreadyInUse,
    sessionWasActive: session.state.busy && !abandon,
    continuePendingWork,
    ...(config.disableResume ? { silent: true } : {}),
  });
  if (problem) {
    if (!holder) open.detach(link);
    throw new Error(problem);
  }
  if (abandon) {
    session.dispatch({ type: "interrupt" });
    await untilIdle(session);
  } else if (continuePendingWork) open.offerPending(link);
}

/** Resolves once the session's turn (if one runs) has ended. */
export function untilIdle(session: SessionView): Promise<void> {
  if (!session.state.busy) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const off = session.subscribe((event) => {
      if (event.type === "session.idle" && !event.agentId) {
        off();
        resolve();
      }
    });
  });
}

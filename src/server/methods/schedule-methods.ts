/**
 * Scheduled prompts and suspending a session over the SDK. agent schedules no prompts (it has no /loop), so
 * the list is empty and stopping finds nothing. Suspending is an interrupt: the turn stops, the questions it
 * waits on (permission, client tools) are withdrawn, and the answer comes once the session is idle; the
 * session stays open, and its log lets any client resume it.
 */
import { z } from "zod";
import { onFirstUse } from "../../provider/plain-fields.js";
import type { SCHEDULE_METHODS } from "./session-control-method-names.js";
import { ownedSession, type MethodTable, type Owned } from "./owned-session.js";
import { sessionIdOf } from "../wire.js";

/** Built when one of these methods is first called: none is part of an SDK application's first exchange. */
const schemas = onFirstUse(() => ({
  stop: z.looseObject({ sessionId: z.string(), id: z.number() }),
}));

export function scheduleMethods(owned: Owned): MethodTable<(typeof SCHEDULE_METHODS)[number]> {
  return {
    "session.schedule.list": (link, params) => {
      ownedSession(owned, link, sessionIdOf(params));
      return { entries: [] };
    },
    "session.schedule.stop": (link, params) => {
      ownedSession(owned, link, schemas().stop.parse(params).sessionId);
      return {};
    },
    "session.suspend": async (link, params) => {
      const session = ownedSession(owned, link, sessionIdOf(params));
      if (!session.state.busy) return {};
      const idle = new Promise<void>((resolve) => {
        const stop = session.subscribe((event) => {
          if (event.type === "session.idle" && !event.agentId) {
            stop();
            resolve();
          }
        });
      });
      session.dispatch({ type: "interrupt" });
      await idle;
      return {};
    },
  };
}

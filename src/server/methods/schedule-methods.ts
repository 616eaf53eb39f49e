/**
 * Scheduled prompts and suspending a session over the SDK. agent schedules no prompts (it has no /loop), so
 * the list is empty and stopping finds nothing. Suspending is an interrupt: the turn stops, the questions it
 * waits on (permission, client tools) are withdrawn, and the answer comes once the session is idle; the
 * session stays open, and its log lets any client resume it.
 */
import { z } from "zod";
import type { SCHEDULE_METHODS } from "./session-control-method-names.js";
import { ownedSession, type MethodTable, type Owned } from "./owned-session.js";

const sessionIdSchema = z.looseObject({ sessionId: z.string() });
const stopSchema = z.looseObject({ sessionId: z.string(), id: z.number() });

export function scheduleMethods(owned: Owned): MethodTable<(typeof SCHEDULE_METHODS)[number]> {
  return {
    "session.schedule.list": (link, params) => {
      ownedSession(owned, link, sessionIdSchema.parse(params).sessionId);
      return { entries: [] };
    },
    "session.schedule.stop": (link, params) => {
      ownedSession(owned, link, stopSchema.parse(params).sessionId);
      return {};
    },
    "session.suspend": async (link, params) => {
      const session = ownedSession(owned, link, sessionIdSchema.parse(params).sessionId);
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

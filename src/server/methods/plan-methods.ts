/** The session's plan (session.plan.*): read as state, written and deleted by the write_plan command. */
import { z } from "zod";
import { onFirstUse } from "../../provider/plain-fields.js";
import { readPlan } from "../../core/index.js";
import type { ClientLink, ServedSession } from "../served-session.js";
import { sessionIdOf } from "../wire.js";
import type { PLAN_METHODS } from "./server-method-names.js";

type Method = (typeof PLAN_METHODS)[number];
type Handler = (link: ClientLink, params: unknown) => unknown;

/** Built when one of these methods is first called: none is part of an SDK application's first exchange. */
const schemas = onFirstUse(() => ({
  update: z.looseObject({ sessionId: z.string(), content: z.string() }),
}));

export function planMethods(owned: (link: ClientLink, sessionId: string) => ServedSession): Record<Method, Handler> {
  const session = (link: ClientLink, sessionId: string) => owned(link, sessionId).session as NonNullable<ServedSession["session"]>;
  const written = (problem: string | undefined) => {
    if (problem) throw new Error(problem);
    return {};
  };
  return {
    "session.plan.read": (link, params) => readPlan(session(link, sessionIdOf(params)).dir),
    "session.plan.update": (link, params) => {
      const { sessionId, content } = schemas().update.parse(params);
      return written(session(link, sessionId).dispatch({ type: "write_plan", content }));
    },
    "session.plan.delete": (link, params) => written(session(link, sessionIdOf(params)).dispatch({ type: "write_plan", content: null })),
  };
}

/**
 * A client's interest in an event type (session.eventLog.registerInterest/releaseInterest). Copilot switches
 * some behaviour on whether anyone listens (MCP sign-in, sampling, queued commands); this agent asks the
 * clients that said what they can answer when the session was opened, and switches only on `command.queued`
 * (session.commands.enqueue then hands slash commands to the client). The handles are given and taken back.
 */
import { randomUUID } from "../../util/random-id.js";
import { z } from "zod";
import { onFirstUse } from "../../provider/plain-fields.js";
import type { ClientLink, ServedSession } from "../served-session.js";
import type { EVENT_LOG_METHODS } from "./history-and-interest-names.js";

/** Built when one of these methods is first called: none is part of an SDK application's first exchange. */
const schemas = onFirstUse(() => ({
  register: z.looseObject({ sessionId: z.string(), eventType: z.string() }),
  release: z.looseObject({ sessionId: z.string(), handle: z.string() }),
}));

export function eventLogMethods(
  owned: (link: ClientLink, sessionId: string) => ServedSession,
): Record<(typeof EVENT_LOG_METHODS)[number], (link: ClientLink, params: unknown) => unknown> {
  return {
    "session.eventLog.registerInterest": (link, params) => {
      const { sessionId, eventType } = schemas().register.parse(params);
      const handle = randomUUID();
      owned(link, sessionId).interests.set(handle, eventType);
      return { handle };
    },
    // Releasing an unknown or released handle is not an error (Copilot's contract).
    "session.eventLog.releaseInterest": (link, params) => {
      const { sessionId, handle } = schemas().release.parse(params);
      owned(link, sessionId).interests.delete(handle);
      return { success: true };
    },
  };
}

/**
 * A client's interest in an event type (session.eventLog.registerInterest/releaseInterest). Copilot switches
 * some behaviour on whether anyone listens (MCP sign-in, sampling); this agent asks the clients that said
 * what they can answer when the session was opened, so an interest changes nothing here. The handles are
 * still given and taken back, so a client that registers before its first turn works as with Copilot.
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { ClientLink, ServedSession } from "../served-session.js";
import type { EVENT_LOG_METHODS } from "./history-and-interest-names.js";

const registerSchema = z.looseObject({ sessionId: z.string(), eventType: z.string() });
const releaseSchema = z.looseObject({ sessionId: z.string(), handle: z.string() });

export function eventLogMethods(
  owned: (link: ClientLink, sessionId: string) => ServedSession,
): Record<(typeof EVENT_LOG_METHODS)[number], (link: ClientLink, params: unknown) => unknown> {
  return {
    "session.eventLog.registerInterest": (link, params) => {
      owned(link, registerSchema.parse(params).sessionId);
      return { handle: randomUUID() };
    },
    // Releasing an unknown or released handle is not an error (Copilot's contract).
    "session.eventLog.releaseInterest": (link, params) => {
      owned(link, releaseSchema.parse(params).sessionId);
      return { success: true };
    },
  };
}

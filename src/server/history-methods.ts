/**
 * The Copilot SDK's rewind methods of a session: session.history.listRewindPoints, previewRewind, rewind and
 * truncate. Each is the engine's rewind command in the SDK's shapes; Copilot's points are the user's prompts,
 * so the rewinds themselves (ours to undo) are not listed here.
 */
import { z } from "zod";
import { onFirstUse } from "../provider/plain-fields.js";
import type { RewindPoint } from "../protocol/rewind.js";
import type { ClientLink, ServedSession } from "./served-session.js";
import { sessionIdOf } from "./wire.js";

/** Built when one of these methods is first called: none is part of an SDK application's first exchange. */
const schemas = onFirstUse(() => ({
  event: z.looseObject({ sessionId: z.string(), eventId: z.string() }),
  rewind: z.looseObject({ sessionId: z.string(), eventId: z.string(), mode: z.enum(["conversation", "conversation-and-files"]) }),
}));

type Method = "session.history.listRewindPoints" | "session.history.previewRewind" | "session.history.rewind" | "session.history.truncate";

/** What the SDK calls a point: a user prompt, with the files captured from it on. */
function sdkPoints(points: readonly RewindPoint[]) {
  return points.flatMap((point, index) => {
    if (point.kind !== "prompt") return [];
    const files = new Set(points.slice(index).flatMap((later) => later.changedFiles));
    return [
      {
        eventId: point.eventId,
        userMessage: point.text,
        timestamp: point.timestamp,
        canRestoreFiles: files.size > 0,
        fileCount: files.size,
        turnChangedFiles: point.changedFiles.length > 0,
        linesAdded: point.linesAdded,
        linesRemoved: point.linesRemoved,
        isAutopilotContinuation: point.isAutopilotContinuation,
      },
    ];
  });
}

const CHANGE_TYPES = { delete: "created", recreate: "deleted", restore: "modified" } as const;

export function historyMethods(owned: (link: ClientLink, sessionId: string) => ServedSession): Record<Method, (link: ClientLink, params: unknown) => unknown> {
  const engine = (link: ClientLink, sessionId: string) => owned(link, sessionId).session as NonNullable<ServedSession["session"]>;
  return {
    "session.history.listRewindPoints": (link, params) => {
      const session = engine(link, sessionIdOf(params));
      if (session.state.busy) return { fileChangeTrackingEnabled: true, unavailableReason: "session-busy", points: [] };
      return { fileChangeTrackingEnabled: true, points: sdkPoints(session.dispatch({ type: "rewind_points" })) };
    },
    "session.history.previewRewind": async (link, params) => {
      const { sessionId, eventId } = schemas().event.parse(params);
      const session = engine(link, sessionId);
      if (session.state.busy) return { available: false, reason: "session-busy", fileCount: 0, files: [] };
      const preview = await session.dispatch({ type: "preview_rewind", eventId, scope: "conversation-and-files" });
      if (typeof preview === "string") throw new Error(preview);
      // The SDK counts what the discarded turns did; a restore undoes it, so its additions were their removals.
      const files = preview.files.map((file) => ({
        path: file.path,
        changeType: CHANGE_TYPES[file.change],
        linesAdded: file.linesRemoved,
        linesRemoved: file.linesAdded,
      }));
      return { available: true, fileCount: files.length, files };
    },
    "session.history.rewind": async (link, params) => {
      const { sessionId, eventId, mode } = schemas().rewind.parse(params);
      const outcome = await engine(link, sessionId).dispatch({ type: "rewind", eventId, scope: mode });
      if (!outcome.ok) {
        return outcome.reason === "busy"
          ? { outcome: "session-busy", restoredFiles: [], skippedFiles: [] }
          : { outcome: "truncation-failed", restoredFiles: [], skippedFiles: [], error: outcome.error };
      }
      return {
        outcome: "success",
        eventsRemoved: outcome.eventsRemoved,
        restoredFiles: outcome.restoredFiles,
        skippedFiles: outcome.skippedFiles.map((file) => ({ path: file.path, reason: file.reason === "changed-since" ? "user-modified" : "skipped-capture" })),
      };
    },
    "session.history.truncate": async (link, params) => {
      const { sessionId, eventId } = schemas().event.parse(params);
      const outcome = await engine(link, sessionId).dispatch({ type: "rewind", eventId, scope: "conversation" });
      if (!outcome.ok) throw new Error(outcome.error);
      return { eventsRemoved: outcome.eventsRemoved };
    },
  };
}

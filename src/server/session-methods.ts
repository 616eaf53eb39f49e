/**
 * The per-session methods of a client's sessions: send, abort, the answers to pending questions, mode and
 * model. Each one is a command dispatched to the session; none waits for a turn to finish.
 */
import { randomUUID } from "node:crypto";
import type { Attachment } from "../protocol/events/index.js";
import { agentModeSchema } from "../protocol/events/index.js";
import { externalToolReply, permissionReply } from "./replies.js";
import type { ClientLink, ServedSession } from "./served-session.js";
import { pendingAnswerSchema, pendingToolCallSchema, sendSchema, sessionIdSchema } from "./wire.js";
import { elicitationReplySchema } from "../protocol/interactions.js";
import { z } from "zod";
import { savedBlob } from "./blob-attachments.js";

const ATTACHABLE = new Set(["file", "directory", "selection"]);

function attachments(list: z.infer<typeof sendSchema>["attachments"], sessionDir: string): Attachment[] | undefined {
  const kept = (list ?? []).flatMap((item): Attachment[] => {
    if (item.type === "blob") return [savedBlob(sessionDir, item)].filter((saved): saved is Attachment => saved !== undefined);
    return ATTACHABLE.has(item.type) && item.path
      ? [{ type: item.type as Attachment["type"], path: item.path, ...(item.displayName ? { displayName: item.displayName } : {}) }]
      : [];
  });
  return kept.length > 0 ? kept : undefined;
}

const modeSetSchema = z.looseObject({ sessionId: z.string(), mode: agentModeSchema });
const logSchema = z.looseObject({ sessionId: z.string(), message: z.string(), level: z.enum(["info", "warning", "error"]).optional() });
const modelSwitchSchema = z.looseObject({ sessionId: z.string(), modelId: z.string() });

type Method =
  | "session.send"
  | "session.abort"
  | "session.tools.handlePendingToolCall"
  | "session.permissions.handlePendingPermissionRequest"
  | "session.ui.handlePendingElicitation"
  | "session.mode.get"
  | "session.mode.set"
  | "session.model.getCurrent"
  | "session.model.switchTo"
  | "session.options.update"
  | "session.log";

/** The methods on one session the calling client holds (`owned` throws for any other). */
export function sessionMethods(owned: (link: ClientLink, sessionId: string) => ServedSession): Record<Method, (link: ClientLink, params: unknown) => unknown> {
  const methods = {} as Record<Method, (link: ClientLink, params: unknown) => unknown>;
  const on = (method: Method, handler: (link: ClientLink, params: unknown) => unknown) => {
    methods[method] = handler;
  };
  const engine = (link: ClientLink, sessionId: string) => {
    const served = owned(link, sessionId);
    return { served, session: served.session as NonNullable<ServedSession["session"]> };
  };

  on("session.send", (link, params) => {
    const request = sendSchema.parse(params);
    const { session } = engine(link, request.sessionId);
    const mode = agentModeSchema.safeParse(request.agentMode);
    if (mode.success) session.dispatch({ type: "set_mode", mode: mode.data });
    const files = attachments(request.attachments, session.dir);
    // The reply goes out at once; the turn's events follow as notifications, its end is session.idle.
    session
      .dispatch({
        type: "send",
        prompt: request.prompt,
        ...(files ? { attachments: files } : {}),
        ...(request.mode ? { delivery: request.mode } : {}),
      })
      .catch(() => undefined);
    return { messageId: randomUUID() };
  });
  on("session.abort", (link, params) => {
    engine(link, sessionIdSchema.parse(params).sessionId).session.dispatch({ type: "interrupt" });
    return { success: true };
  });
  on("session.tools.handlePendingToolCall", (link, params) => {
    const { sessionId, requestId, result, error } = pendingToolCallSchema.parse(params);
    return answered(engine(link, sessionId).served.answer(requestId, externalToolReply(result, error)));
  });
  on("session.permissions.handlePendingPermissionRequest", (link, params) => {
    const { sessionId, requestId, result } = pendingAnswerSchema.parse(params);
    return answered(engine(link, sessionId).served.answer(requestId, permissionReply(result)));
  });
  on("session.ui.handlePendingElicitation", (link, params) => {
    const { sessionId, requestId, result } = pendingAnswerSchema.parse(params);
    const reply = elicitationReplySchema.safeParse(result);
    return answered(engine(link, sessionId).served.answer(requestId, reply.success ? reply.data : { action: "cancel" }));
  });
  on("session.mode.get", (link, params) => engine(link, sessionIdSchema.parse(params).sessionId).session.state.mode);
  on("session.mode.set", (link, params) => {
    const { sessionId, mode } = modeSetSchema.parse(params);
    const { session } = engine(link, sessionId);
    const unchanged = session.state.mode === mode;
    session.dispatch({ type: "set_mode", mode });
    return { status: unchanged ? "unchanged" : "applied", modelChanged: false, modeApplied: mode };
  });
  on("session.model.getCurrent", (link, params) => ({ modelId: engine(link, sessionIdSchema.parse(params).sessionId).session.state.model }));
  on("session.model.switchTo", (link, params) => {
    const { sessionId, modelId } = modelSwitchSchema.parse(params);
    const { session } = engine(link, sessionId);
    session.dispatch({ type: "set_model", model: modelId });
    return { status: "applied", modelId: session.state.model };
  });
  // Options this agent has no counterpart for (coauthor, skills…): accepted, so a client's create succeeds.
  on("session.options.update", (link, params) => {
    engine(link, sessionIdSchema.parse(params).sessionId);
    return { success: true };
  });
  on("session.log", (link, params) => {
    const { sessionId, message, level } = logSchema.parse(params);
    return { eventId: engine(link, sessionId).session.dispatch({ type: "log", level: level ?? "info", message }) };
  });
  return methods;
}

function answered(problem: string | undefined): { success: boolean; error?: string } {
  return problem ? { success: false, error: problem } : { success: true };
}

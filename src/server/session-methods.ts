/**
 * The per-session methods of a client's sessions: send (routed as input, like every face's), abort, the
 * answers to pending questions, mode and model, the MCP servers. Each one is a command dispatched to the
 * session; none waits for a turn to finish.
 */
import { randomUUID } from "../util/random-id.js";
import type { Attachment } from "../protocol/events/shared-schemas.js";
import { externalToolReply, permissionReply } from "./replies.js";
import type { ClientLink, ServedSession } from "./served-session.js";
import { pendingAnswerSchema, pendingToolCallSchema, readSend, sessionIdOf, sessionLimitsWire, type SendRequest } from "./wire.js";
import { elicitationReplySchema } from "../protocol/interactions.js";
import { z } from "zod";
import { onFirstUse } from "../provider/plain-fields.js";

/**
 * The protocol's shared schemas (agent modes, attachments; ~3 ms of CPU to build, most of it schemas the server never
 * reads) load when a request first needs them, not before a session's first send can be answered.
 */
const sharedSchemas = () => import("../protocol/events/shared-schemas.js");
let modeSetSchema: ReturnType<typeof modeSetSchemaOf> | undefined;
const modeSetSchemaOf = (mode: Awaited<ReturnType<typeof sharedSchemas>>["agentModeSchema"]) => z.looseObject({ sessionId: z.string(), mode });

type AgentMode = z.infer<Awaited<ReturnType<typeof sharedSchemas>>["agentModeSchema"]>;

/** A send's agent mode and attachments, read as the engine's (a mode it does not know, or an attachment it keeps none of, is left out). */
async function sendExtras(request: SendRequest, sessionDir: string): Promise<{ mode?: AgentMode; files?: Attachment[] }> {
  const [{ agentModeSchema }, { sendAttachments }] = await Promise.all([sharedSchemas(), import("./send-attachments.js")]);
  const mode = agentModeSchema.safeParse(request.agentMode);
  const files = sendAttachments(request.attachments, sessionDir);
  return { ...(mode.success ? { mode: mode.data } : {}), ...(files ? { files } : {}) };
}
/** Built when first called for: none of these is part of an application's first exchange. */
const schemas = onFirstUse(() => ({
  log: z.looseObject({ sessionId: z.string(), message: z.string(), level: z.enum(["info", "warning", "error"]).optional() }),
  options: z.looseObject({ sessionId: z.string(), workingDirectory: z.string().optional(), sessionLimits: sessionLimitsWire().optional() }),
  modelSwitch: z.looseObject({ sessionId: z.string(), modelId: z.string(), reasoningEffort: z.string().optional() }),
  mcpServer: z.looseObject({ sessionId: z.string(), serverName: z.string() }),
}));

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
  | "session.log"
  | "session.mcp.enable"
  | "session.mcp.disable"
  | "session.mcp.reload";

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
    const request = readSend(params);
    const { session } = engine(link, request.sessionId);
    const send = ({ mode, files }: { mode?: AgentMode; files?: Attachment[] }) => {
      if (mode) session.dispatch({ type: "set_mode", mode });
      // Routed like every face's input (a known `/command`, `@file` mentions); the reply goes out at once, the
      // turn's events follow as notifications, and its end (or the command's) is session.idle.
      void session
        .dispatch({
          type: "input",
          text: request.prompt,
          from: "application",
          ...(files ? { attachments: files } : {}),
          ...(request.mode ? { delivery: request.mode } : {}),
          ...(request.requestHeaders ? { requestHeaders: request.requestHeaders } : {}),
        })
        .then((routed) => (routed.kind === "prompt" ? routed.run : undefined))
        .catch(() => undefined);
      return { messageId: randomUUID() };
    };
    return request.agentMode === undefined && !request.attachments?.length ? send({}) : sendExtras(request, session.dir).then(send);
  });
  on("session.abort", (link, params) => {
    engine(link, sessionIdOf(params)).session.dispatch({ type: "interrupt" });
    return { success: true };
  });
  on("session.tools.handlePendingToolCall", (link, params) => {
    const { sessionId, requestId, result, error } = pendingToolCallSchema().parse(params);
    return answered(engine(link, sessionId).served.answer(requestId, externalToolReply(result, error)));
  });
  on("session.permissions.handlePendingPermissionRequest", (link, params) => {
    const { sessionId, requestId, result } = pendingAnswerSchema().parse(params);
    return answered(engine(link, sessionId).served.answer(requestId, permissionReply(result)));
  });
  on("session.ui.handlePendingElicitation", (link, params) => {
    const { sessionId, requestId, result } = pendingAnswerSchema().parse(params);
    const reply = elicitationReplySchema.safeParse(result);
    return answered(engine(link, sessionId).served.answer(requestId, reply.success ? reply.data : { action: "cancel" }));
  });
  on("session.mode.get", (link, params) => engine(link, sessionIdOf(params)).session.state.mode);
  on("session.mode.set", async (link, params) => {
    modeSetSchema ??= modeSetSchemaOf((await sharedSchemas()).agentModeSchema);
    const { sessionId, mode } = modeSetSchema.parse(params);
    const { session } = engine(link, sessionId);
    const unchanged = session.state.mode === mode;
    session.dispatch({ type: "set_mode", mode });
    return { status: unchanged ? "unchanged" : "applied", modelChanged: false, modeApplied: mode };
  });
  on("session.model.getCurrent", (link, params) => {
    const { served, session } = engine(link, sessionIdOf(params));
    return { modelId: session.state.model, ...(served.reasoningEffort ? { reasoningEffort: served.reasoningEffort } : {}) };
  });
  on("session.model.switchTo", (link, params) => {
    const { sessionId, modelId, reasoningEffort } = schemas().modelSwitch.parse(params);
    const { session } = engine(link, sessionId);
    session.dispatch({ type: "set_model", model: modelId, ...(reasoningEffort ? { reasoningEffort } : {}) });
    return { status: "applied", modelId: session.state.model };
  });
  // Options this agent has no counterpart for (coauthor…): accepted, so a client's create succeeds. The limits are a command.
  // A working directory is the /cwd command's.
  on("session.options.update", (link, params) => {
    const { sessionId, workingDirectory, sessionLimits } = schemas().options.parse(params);
    const { session } = engine(link, sessionId);
    const refused = workingDirectory === undefined ? undefined : session.dispatch({ type: "set_cwd", path: workingDirectory });
    if (refused) throw new Error(refused);
    if (sessionLimits !== undefined) session.dispatch({ type: "set_session_limits", limits: sessionLimits });
    return { success: true };
  });
  on("session.log", (link, params) => {
    const { sessionId, message, level } = schemas().log.parse(params);
    return { eventId: engine(link, sessionId).session.dispatch({ type: "log", level: level ?? "info", message }) };
  });
  // The MCP servers, by the same commands as /mcp: what they do is told by session.mcp_server_status_changed.
  const mcpDone = async (problem: Promise<string | undefined>) => {
    const refused = await problem;
    if (refused) throw new Error(refused);
    return null;
  };
  on("session.mcp.enable", (link, params) => {
    const { sessionId, serverName } = schemas().mcpServer.parse(params);
    return mcpDone(engine(link, sessionId).session.dispatch({ type: "enable_mcp_server", server: serverName }));
  });
  on("session.mcp.disable", (link, params) => {
    const { sessionId, serverName } = schemas().mcpServer.parse(params);
    return mcpDone(engine(link, sessionId).session.dispatch({ type: "disable_mcp_server", server: serverName }));
  });
  on("session.mcp.reload", (link, params) => mcpDone(engine(link, sessionIdOf(params)).session.dispatch({ type: "reload_mcp_servers" })));
  return methods;
}

function answered(problem: string | undefined): { success: boolean; error?: string } {
  return problem ? { success: false, error: problem } : { success: true };
}

/**
 * Before a tool call runs: the preToolUse hooks (asked first, as Copilot does, even about a tool that does not
 * exist), the tool looked up, its arguments validated (a hook's rewrite validated again), the permission gate.
 * What comes out is a call ready to run, or the result the model gets instead.
 */
import { z } from "zod";
import type { AnyTool } from "../tools/define-tool.js";
import type { ToolRequest } from "../protocol/events/index.js";
import type { PermissionOutcome } from "./permission-broker.js";
import type { RefusedCall, ToolRunEnvironment } from "./tool-runner.js";
import { deniedByHookText, INTERRUPTED_TOOL_TEXT, unknownToolText } from "./tool-texts.js";

/** What the gate said of an approved call, persisted on its tool.execution_start (see permission-broker.ts). */
type Approval = Pick<Extract<PermissionOutcome, { approved: true }>, "changedFiles" | "approvedByUser">;

export type Prepared =
  /** `rewritten`: a preToolUse hook's arguments, which the history shows in place of the model's. */
  | { ready: true; request: ToolRequest; tool: AnyTool; args: unknown; approval?: Approval; rewritten?: unknown; unknownChanges?: string }
  /** Not to be run; `tool` and `args` are there when the arguments were valid (a denial), for the title. */
  | { ready: false; request: ToolRequest; message: string; code: string; tool?: AnyTool; args?: unknown; rewritten?: unknown; rejected?: boolean };

export function describeSchemaError(tool: AnyTool, error: z.ZodError): string {
  return `Invalid arguments for ${tool.name}:\n${z.prettifyError(error)}\nFix the arguments and call ${tool.name} again.`;
}

export const notRun = (request: ToolRequest): Prepared => ({ ready: false, request, code: "aborted", message: INTERRUPTED_TOOL_TEXT });

const unknownTool = (request: ToolRequest, env: ToolRunEnvironment): Prepared => ({
  ready: false,
  request,
  code: "unknown_tool",
  message: unknownToolText(request.name, env.tools.names),
});

export async function prepare(request: ToolRequest, env: ToolRunEnvironment, signal: AbortSignal, refused?: RefusedCall): Promise<Prepared> {
  if (refused) return { ready: false, request, code: refused.code, message: refused.message };
  const tool = env.tools.get(request.name);
  if (typeof request.arguments === "string") {
    if (!tool) return unknownTool(request, env);
    return {
      ready: false,
      request,
      code: "invalid_json",
      message: `The arguments for ${tool.name} were not valid JSON. Send them as one JSON object matching the tool's schema. Received: ${request.arguments.slice(0, 500)}`,
    };
  }
  let given: unknown = request.arguments ?? {};
  let rewritten: unknown;
  let hookSays: "allow" | "ask" | undefined;
  const { hooks } = env;
  if (hooks) {
    // Before the gate: a hook's deny wins over every allow rule; its allow still yields to a deny rule.
    const hook = await hooks.preToolUse(request.name, given, signal);
    if (signal.aborted) return notRun(request);
    if (hook.decision === "deny") {
      const parsed = tool?.parameters.safeParse(given);
      return {
        ready: false,
        request,
        code: "denied-by-hook",
        message: deniedByHookText(hook.reason),
        ...(tool && parsed?.success ? { tool, args: parsed.data } : {}),
      };
    }
    if (hook.modifiedArgs) given = rewritten = hook.modifiedArgs;
    if (hook.decision === "allow" || hook.decision === "ask") hookSays = hook.decision;
  }
  if (!tool) return unknownTool(request, env);
  const parsed = tool.parameters.safeParse(given);
  if (!parsed.success) {
    const message =
      rewritten === undefined
        ? describeSchemaError(tool, parsed.error)
        : `A preToolUse hook rewrote the arguments into invalid ones. ${describeSchemaError(tool, parsed.error)}`;
    return { ready: false, request, code: "invalid_arguments", message };
  }
  const args = parsed.data;
  const mark = rewritten === undefined ? {} : { rewritten };
  const permission = await tool.permission(args, { cwd: env.cwd, toolCallId: request.toolCallId });
  if (permission) {
    const steer = hooks ? { hookDecision: hookSays, answerInstead: () => hooks.permissionRequest(tool.name, args, signal) } : undefined;
    const outcome = await env.permissions.check({ ...permission, toolCallId: request.toolCallId }, tool.name, signal, steer);
    // Interrupted while its question waited: the call was stopped, not refused (Copilot's words for it).
    if (!outcome.approved && signal.aborted) return notRun(request);
    if (!outcome.approved) {
      return { ready: false, request, code: outcome.kind, message: outcome.message, tool, args, ...mark, ...(outcome.rejected ? { rejected: true } : {}) };
    }
    const { approved: _approved, unknownChanges, ...approval } = outcome;
    return { ready: true, request, tool, args, approval, ...mark, ...(unknownChanges ? { unknownChanges } : {}) };
  }
  return { ready: true, request, tool, args, ...mark };
}

/**
 * Runs the tool calls of one response. Each call is resolved, validated and passed through the permission
 * gate, then executed. Consecutive read-only calls run concurrently; everything else runs in order. Events
 * are reported in request order, and every call gets a result, so the history stays valid whatever happens
 * (bad arguments, unknown tool, denial, failure, interrupt).
 */
import { z } from "zod";
import type { ToolBackends } from "../tools/backends.js";
import { ToolError, type AnyTool, type ToolOutcome } from "../tools/define-tool.js";
import type { ToolRequest } from "../protocol/events/index.js";
import type { Answer, InteractionKind, InteractionRequests } from "../protocol/interactions.js";
import type { ToolHookDecision } from "../hooks/decisions.js";
import type { Emit } from "./event-sink.js";
import type { PermissionChecker, PermissionOutcome } from "./permission-broker.js";
import type { ToolSet } from "./tool-set.js";

/** A safety net under each tool's own truncation: nothing larger goes to the model. */
const MAX_RESULT_CHARS = 100_000;
/** Live output streamed to subscribers per call; the rest is in the result (and on disk for bash). */
const MAX_PARTIAL_OUTPUT_CHARS = 256 * 1024;

export interface ToolRunEnvironment {
  tools: ToolSet;
  cwd: string;
  sessionDir: string;
  emit: Emit;
  permissions: PermissionChecker;
  /** The interaction broker as this agent sees it. */
  ask<K extends InteractionKind>(kind: K, request: InteractionRequests[K], signal: AbortSignal): Promise<Answer<K>>;
  onCodeChange(change: NonNullable<ToolOutcome["codeChange"]>): void;
  /** The session's hooks as this agent fires them; absent when none of the tool events has a hook. */
  hooks?: ToolHooks;
  /** Where the tools read and write files and run commands, when not locally (a face's client). */
  backends?: ToolBackends;
}

/** The hook events around a tool call (preToolUse, permissionRequest, postToolUse/postToolUseFailure). */
export interface ToolHooks {
  preToolUse(toolName: string, toolArgs: unknown, signal: AbortSignal): Promise<ToolHookDecision>;
  permissionRequest(toolName: string, toolInput: unknown, signal: AbortSignal): Promise<{ approved: boolean; reason?: string } | undefined>;
  postToolUse(toolName: string, toolArgs: unknown, outcome: { success: boolean; text: string }, signal: AbortSignal): Promise<void>;
}

/** A call refused before it was prepared (its arguments could not be read), with the result for the model. */
export interface RefusedCall {
  code: string;
  message: string;
}

export interface ToolBatchResult {
  /** A tool ended the run: the loop stops after this batch. */
  finish?: { summary: string };
}

/** What the gate said of an approved call, persisted on its tool.execution_start (see permission-broker.ts). */
type Approval = Pick<Extract<PermissionOutcome, { approved: true }>, "changedFiles" | "approvedByUser">;

type Prepared =
  | { ready: true; request: ToolRequest; tool: AnyTool; args: unknown; approval?: Approval }
  /** Not to be run; `tool` and `args` are there when the arguments were valid (a denial), for the title. */
  | { ready: false; request: ToolRequest; message: string; code: string; tool?: AnyTool; args?: unknown };

function describeSchemaError(tool: AnyTool, error: z.ZodError): string {
  return `Invalid arguments for ${tool.name}:\n${z.prettifyError(error)}\nFix the arguments and call ${tool.name} again.`;
}

async function prepare(request: ToolRequest, env: ToolRunEnvironment, signal: AbortSignal, refused?: RefusedCall): Promise<Prepared> {
  if (refused) return { ready: false, request, code: refused.code, message: refused.message };
  const tool = env.tools.get(request.name);
  if (!tool) {
    return {
      ready: false,
      request,
      code: "unknown_tool",
      // Copilot's wording: models are tuned on it, and the tool list is in the request already.
      message: `Tool '${request.name}' does not exist.`,
    };
  }
  if (typeof request.arguments === "string") {
    return {
      ready: false,
      request,
      code: "invalid_json",
      message: `The arguments for ${tool.name} were not valid JSON. Send them as one JSON object matching the tool's schema. Received: ${request.arguments.slice(0, 500)}`,
    };
  }
  const parsed = tool.parameters.safeParse(request.arguments ?? {});
  if (!parsed.success) return { ready: false, request, code: "invalid_arguments", message: describeSchemaError(tool, parsed.error) };
  let args: unknown = parsed.data;
  let hookSays: "allow" | "ask" | undefined;
  const { hooks } = env;
  if (hooks) {
    // Before the gate: a hook's deny wins over every allow rule; its allow still yields to a deny rule.
    const hook = await hooks.preToolUse(tool.name, args, signal);
    if (signal.aborted) return notRun(request);
    if (hook.decision === "deny") {
      return { ready: false, request, code: "denied-by-hook", message: `Denied by preToolUse hook: ${hook.reason ?? "no reason given"}`, tool, args };
    }
    if (hook.modifiedArgs) {
      const rewritten = tool.parameters.safeParse(hook.modifiedArgs);
      if (!rewritten.success)
        return {
          ready: false,
          request,
          code: "invalid_arguments",
          message: `A preToolUse hook rewrote the arguments into invalid ones. ${describeSchemaError(tool, rewritten.error)}`,
        };
      args = rewritten.data;
    }
    if (hook.decision === "allow" || hook.decision === "ask") hookSays = hook.decision;
  }
  const permission = await tool.permission(args, { cwd: env.cwd, toolCallId: request.toolCallId });
  if (permission) {
    const steer = hooks ? { hookDecision: hookSays, answerInstead: () => hooks.permissionRequest(tool.name, args, signal) } : undefined;
    const outcome = await env.permissions.check({ ...permission, toolCallId: request.toolCallId }, tool.name, signal, steer);
    if (!outcome.approved) return { ready: false, request, code: outcome.kind, message: outcome.message, tool, args };
    const { approved: _approved, ...approval } = outcome;
    return { ready: true, request, tool, args, approval };
  }
  return { ready: true, request, tool, args };
}

/** postToolUse / postToolUseFailure for the calls that ran, in order. */
async function afterCalls(prepared: readonly Prepared[], outcomes: readonly ToolOutcome[], env: ToolRunEnvironment, signal: AbortSignal): Promise<void> {
  if (!env.hooks) return;
  for (const [position, call] of prepared.entries()) {
    const outcome = outcomes[position] as ToolOutcome;
    if (call.ready)
      await env.hooks.postToolUse(call.tool.name, call.args, { success: outcome.success !== false, text: truncateForModel(outcome.content) }, signal);
  }
}

function truncateForModel(content: string): string {
  if (content.length <= MAX_RESULT_CHARS) return content;
  return `${content.slice(0, MAX_RESULT_CHARS)}\n[Output truncated: ${content.length - MAX_RESULT_CHARS} more characters not shown.]`;
}

async function execute(call: Extract<Prepared, { ready: true }>, env: ToolRunEnvironment, signal: AbortSignal): Promise<ToolOutcome> {
  const { request, tool } = call;
  let streamed = 0;
  const onPartialOutput = (chunk: string) => {
    if (streamed >= MAX_PARTIAL_OUTPUT_CHARS) return;
    const room = MAX_PARTIAL_OUTPUT_CHARS - streamed;
    streamed += chunk.length;
    const partialOutput = chunk.length <= room ? chunk : `${chunk.slice(0, room)}\n[live output stops here; the result has the rest]\n`;
    env.emit("tool.execution_partial_result", { toolCallId: request.toolCallId, partialOutput });
  };
  try {
    return await tool.execute(call.args, {
      cwd: env.cwd,
      toolCallId: request.toolCallId,
      signal,
      sessionDir: env.sessionDir,
      onPartialOutput,
      onProgress: (message) => env.emit("tool.execution_progress", { toolCallId: request.toolCallId, progressMessage: message }),
      ask: (kind, asked) => env.ask(kind, asked, signal),
      checkPermission: async (asked) => {
        const outcome = await env.permissions.check({ ...asked, toolCallId: request.toolCallId }, tool.name, signal);
        return outcome.approved ? { approved: true } : { approved: false, message: outcome.message };
      },
      ...env.backends,
    });
  } catch (error) {
    if (error instanceof ToolError) return { content: error.message, success: false, errorCode: error.code };
    if (signal.aborted) return { content: "The tool was interrupted by the user.", success: false, errorCode: "aborted" };
    return { content: `${tool.name} failed: ${(error as Error).message ?? String(error)}`, success: false, errorCode: "tool_failed" };
  }
}

function emitStart(call: Prepared, env: ToolRunEnvironment, turnId: string | undefined, title?: string): void {
  const { request } = call;
  let toolTitle: string | undefined = title;
  if (toolTitle === undefined && call.tool?.title && call.args !== undefined) {
    try {
      toolTitle = call.tool.title(call.args);
    } catch {
      toolTitle = undefined;
    }
  }
  env.emit("tool.execution_start", {
    toolCallId: request.toolCallId,
    toolName: request.name,
    arguments: request.arguments,
    ...(toolTitle ? { toolTitle } : {}),
    ...mcpNames(env.tools.get(request.name)),
    ...(turnId !== undefined ? { turnId } : {}),
    ...(call.ready ? call.approval : {}),
  });
}

const mcpNames = (tool: AnyTool | undefined) => (tool?.mcp ? { mcpServerName: tool.mcp.serverName, mcpToolName: tool.mcp.toolName } : {});

function emitComplete(
  request: ToolRequest,
  outcome: ToolOutcome,
  env: ToolRunEnvironment,
  turnId: string | undefined,
  result: ToolBatchResult,
  userRequested = false,
): void {
  const success = outcome.success !== false;
  const content = truncateForModel(outcome.content);
  env.emit("tool.execution_complete", {
    toolCallId: request.toolCallId,
    success,
    ...(userRequested ? { isUserRequested: true } : {}),
    ...(success
      ? {
          result: {
            content,
            ...(outcome.detailedContent !== undefined ? { detailedContent: outcome.detailedContent } : {}),
            ...(outcome.contents ? { contents: outcome.contents } : {}),
            ...(outcome.images?.length ? { images: outcome.images } : {}),
          },
        }
      : { error: { message: content, ...(outcome.errorCode ? { code: outcome.errorCode } : {}) } }),
    ...(outcome.telemetry ? { toolTelemetry: outcome.telemetry } : {}),
    ...mcpNames(env.tools.get(request.name)),
    ...(turnId !== undefined ? { turnId } : {}),
  });
  if (success && outcome.codeChange) env.onCodeChange(outcome.codeChange);
  if (success && outcome.finish) result.finish = outcome.finish;
}

const notRun = (request: ToolRequest): Prepared => ({
  ready: false,
  request,
  code: "aborted",
  message: "Not run: the user interrupted before this tool call started.",
});

/** Calls that may run together: read-only ones with each other, a parallel tool's calls with each other. */
function parallelGroup(env: ToolRunEnvironment, request: ToolRequest): string | undefined {
  const tool = env.tools.get(request.name);
  if (tool?.readOnly) return "read-only";
  return tool?.runsInParallel ? `tool:${tool.name}` : undefined;
}

export async function runToolCalls(
  requests: readonly ToolRequest[],
  env: ToolRunEnvironment,
  signal: AbortSignal,
  turnId: string,
  refused: ReadonlyMap<string, RefusedCall> = new Map(),
): Promise<ToolBatchResult> {
  const result: ToolBatchResult = {};
  let index = 0;
  while (index < requests.length) {
    const batch: ToolRequest[] = [requests[index] as ToolRequest];
    index++;
    const group = parallelGroup(env, batch[0] as ToolRequest);
    if (group !== undefined) {
      while (index < requests.length && parallelGroup(env, requests[index] as ToolRequest) === group) batch.push(requests[index++] as ToolRequest);
    }
    const prepared: Prepared[] = [];
    for (const request of batch) prepared.push(signal.aborted ? notRun(request) : await prepare(request, env, signal, refused.get(request.toolCallId)));
    for (const call of prepared) emitStart(call, env, turnId);
    const outcomes = await Promise.all(
      prepared.map((call): Promise<ToolOutcome> | ToolOutcome =>
        call.ready ? execute(call, env, signal) : { content: call.message, success: false, errorCode: call.code },
      ),
    );
    await afterCalls(prepared, outcomes, env, signal);
    prepared.forEach((call, position) => emitComplete(call.request, outcomes[position] as ToolOutcome, env, turnId, result));
  }
  return result;
}

/**
 * A call the user asked for themselves (`!cmd`): no permission gate (they typed it), the same lifecycle,
 * output caps and events as a model's call otherwise.
 */
export async function runUserRequestedCall(
  request: ToolRequest,
  tool: AnyTool,
  env: ToolRunEnvironment,
  signal: AbortSignal,
  toolTitle: string,
): Promise<ToolOutcome> {
  const parsed = tool.parameters.safeParse(request.arguments ?? {});
  const call: Prepared = parsed.success
    ? { ready: true, request, tool, args: parsed.data }
    : { ready: false, request, code: "invalid_arguments", message: describeSchemaError(tool, parsed.error) };
  emitStart(call, env, undefined, toolTitle);
  const outcome = call.ready ? await execute(call, env, signal) : { content: call.message, success: false, errorCode: call.code };
  emitComplete(request, outcome, env, undefined, {}, true);
  return outcome;
}

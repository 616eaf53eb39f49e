/**
 * Runs the tool calls of one response. Each call is resolved, validated and passed through the permission
 * gate, then executed. Consecutive calls that may run together (read-only ones, an SDK app's own tools, a
 * parallel tool's calls) are also checked together: their permission questions are asked at once (Copilot
 * asks an app about parallel calls in parallel; one answer waiting on another's would deadlock), and no call
 * of such a batch runs before all are checked. Everything else is checked and runs in order. Events
 * are reported in request order, and every call gets a result, so the history stays valid whatever happens
 * (bad arguments, unknown tool, denial, failure, interrupt).
 */
import type { ToolBackends } from "../tools/backends.js";
import { ToolError, type AnyTool, type McpCallHook, type ToolOutcome } from "../tools/define-tool.js";
import type { ToolRequest } from "../protocol/events/index.js";
import type { Answer, InteractionKind, InteractionRequests } from "../protocol/interactions.js";
import type { ToolHookDecision } from "../hooks/decisions.js";
import type { FileChange } from "../permissions/agent-written-code.js";
import type { Emit } from "./event-sink.js";
import type { PermissionChecker } from "./permission-broker.js";
import { describeSchemaError, notRun, prepare, type Prepared } from "./tool-prepare.js";
import { INTERRUPTED_TOOL_TEXT } from "./tool-texts.js";
import type { ToolSet } from "./tool-set.js";

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

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
  /** Runs each call that passed the gate: /rewind's file snapshots around it, a replay's recorded outcome instead of it. */
  around?: AroundToolCall;
}

/** A call about to run: what the gate said it changes, and why not all of that is known. */
export type ToolCallInfo = { toolCallId: string; toolName: string; changes: readonly FileChange[]; unknownChanges?: string };
export type AroundToolCall = (call: ToolCallInfo, run: () => Promise<ToolOutcome>) => Promise<ToolOutcome>;

/** A tool's result as hooks see it and may replace it (postToolUse's modifiedResult). */
export interface ToolResultText {
  success: boolean;
  text: string;
}

/** The hook events around a tool call (preToolUse, permissionRequest, postToolUse/postToolUseFailure, preMcpToolCall). */
export interface ToolHooks {
  preToolUse(toolName: string, toolArgs: unknown, signal: AbortSignal): Promise<ToolHookDecision>;
  permissionRequest(toolName: string, toolInput: unknown, signal: AbortSignal): Promise<{ approved: boolean; reason?: string } | undefined>;
  /** A result to give the model instead, when a hook rewrote it. */
  postToolUse(toolName: string, toolArgs: unknown, outcome: ToolResultText, signal: AbortSignal): Promise<ToolResultText | undefined>;
  /** Before an MCP server's tool is called: the request's `_meta` as the hooks would have it. */
  preMcpToolCall?(call: Parameters<McpCallHook>[0], signal: AbortSignal): ReturnType<McpCallHook>;
}

/** A call refused before it was prepared (its arguments could not be read), with the result for the model. */
export interface RefusedCall {
  code: string;
  message: string;
}

export interface ToolBatchResult {
  /** A tool ended the run: the loop stops after this batch. */
  finish?: { summary: string };
  /** A call was rejected outright (see ToolOutcome.rejected): the prompt's run ends after this batch. */
  rejected?: boolean;
}

/** postToolUse / postToolUseFailure for the calls that ran, in order; a hook's modifiedResult replaces the result. */
async function afterCalls(prepared: readonly Prepared[], outcomes: ToolOutcome[], env: ToolRunEnvironment, signal: AbortSignal): Promise<void> {
  if (!env.hooks) return;
  for (const [position, call] of prepared.entries()) {
    const outcome = outcomes[position] as ToolOutcome;
    if (!call.ready) continue;
    const success = outcome.success !== false;
    const modified = await env.hooks.postToolUse(call.tool.name, call.args, { success, text: truncateForModel(outcome.content) }, signal);
    if (!modified) continue;
    const { success: _success, errorCode: _code, ...kept } = outcome;
    outcomes[position] = { ...kept, content: modified.text, ...(modified.success ? {} : { success: false, errorCode: outcome.errorCode ?? "failure" }) };
  }
}

function truncateForModel(content: string): string {
  if (content.length <= MAX_RESULT_CHARS) return content;
  return `${content.slice(0, MAX_RESULT_CHARS)}\n[Output truncated: ${content.length - MAX_RESULT_CHARS} more characters not shown.]`;
}

function execute(call: Extract<Prepared, { ready: true }>, env: ToolRunEnvironment, signal: AbortSignal): Promise<ToolOutcome> {
  if (!env.around) return executeTool(call, env, signal);
  const info = { toolCallId: call.request.toolCallId, toolName: call.tool.name, changes: call.approval?.changedFiles ?? [] };
  return env.around(call.unknownChanges ? { ...info, unknownChanges: call.unknownChanges } : info, () => executeTool(call, env, signal));
}

async function executeTool(call: Extract<Prepared, { ready: true }>, env: ToolRunEnvironment, signal: AbortSignal): Promise<ToolOutcome> {
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
      ...(env.hooks?.preMcpToolCall ? { preMcpToolCall: (call) => (env.hooks?.preMcpToolCall as NonNullable<ToolHooks["preMcpToolCall"]>)(call, signal) } : {}),
      ...env.backends,
    });
  } catch (error) {
    if (error instanceof ToolError) return { content: error.message, success: false, errorCode: error.code };
    if (signal.aborted) return { content: INTERRUPTED_TOOL_TEXT, success: false, errorCode: "aborted" };
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
    // A preToolUse hook's rewrite is what ran, and what the history shows from here on (conversation.ts).
    arguments: call.rewritten ?? request.arguments,
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
  if (outcome.rejected) result.rejected = true;
}

/**
 * Calls that may run together: read-only ones with each other, an SDK app's tools with each other (the app runs
 * them, as Copilot has it do at once), a parallel tool's calls with each other.
 */
function parallelGroup(env: ToolRunEnvironment, request: ToolRequest): string | undefined {
  const tool = env.tools.get(request.name);
  if (tool?.readOnly) return "read-only";
  if (tool?.client) return "client";
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
    // Checked together: each check sees the same files, as none of the batch runs before all are checked.
    const prepared = await Promise.all(
      batch.map((request) => (signal.aborted ? notRun(request) : prepare(request, env, signal, refused.get(request.toolCallId)))),
    );
    for (const call of prepared) emitStart(call, env, turnId);
    const running: (Promise<ToolOutcome> | ToolOutcome)[] = [];
    for (const call of prepared) {
      if (!call.ready) {
        running.push({ content: call.message, success: false, errorCode: call.code, ...(call.rejected ? { rejected: true } : {}) });
        continue;
      }
      // Each call of a batch starts in a turn of the event loop of its own (ten background agents are ten
      // start-ups and ten connections): input and what the faces draw get their turn in between.
      if (running.length > 0) await nextTurn();
      // Interrupted meanwhile: the calls not started yet are not started.
      if (signal.aborted) {
        running.push({ content: INTERRUPTED_TOOL_TEXT, success: false, errorCode: "aborted" });
        continue;
      }
      const started = execute(call, env, signal);
      // Awaited with the others below; failing while the next one starts is not an unhandled rejection.
      started.catch(() => undefined);
      running.push(started);
    }
    const outcomes = await Promise.all(running);
    await afterCalls(prepared, outcomes, env, signal);
    prepared.forEach((call, position) => emitComplete(call.request, outcomes[position] as ToolOutcome, env, turnId, result));
    // A rejection ends the run where it is: the calls after it in this response are not run.
    if (result.rejected) {
      for (const request of requests.slice(index)) {
        const skipped = notRun(request);
        emitStart(skipped, env, turnId);
        emitComplete(request, { content: INTERRUPTED_TOOL_TEXT, success: false, errorCode: "aborted" }, env, turnId, result);
      }
      break;
    }
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

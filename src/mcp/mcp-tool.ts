/**
 * An MCP server's tool as one of ours: named `<server>-<tool>` (Copilot's naming), its JSON Schema offered
 * to the model as the server wrote it (the server validates the arguments; we only check they are an
 * object), every call through the permission gate as kind `mcp`.
 */
import { z } from "zod";
import { defineTool, ToolError, type AnyTool, type ToolContext, type ToolOutcome } from "../tools/define-tool.js";
import { lazyParameters } from "../tools/lazy-parameters.js";
import type { CallToolResult, McpConnection, McpToolInfo } from "./mcp-connection.js";

/** How long a call may take when the server's configuration names no `timeout`. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;

const argumentsSchema = lazyParameters(() => z.record(z.string(), z.unknown()));

/**
 * `<server>-<tool>`, in the characters and length every OpenAI-compatible endpoint accepts for a function name
 * (one bad name would make the endpoint refuse every request of the session).
 */
export function mcpToolName(serverName: string, toolName: string): string {
  return `${serverName}-${toolName}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
}

/** Text content joined for the model; everything else (images, resources, structured content) kept in `contents`. */
export function outcomeOf(result: CallToolResult): ToolOutcome {
  const texts: string[] = [];
  const others: unknown[] = [];
  for (const item of result.content ?? []) {
    if (item.type === "text") texts.push(item.text);
    else others.push(item);
  }
  if (result.structuredContent !== undefined) others.push({ type: "structured", structuredContent: result.structuredContent });
  let content = texts.join("\n");
  if (content === "" && others.length > 0) content = others.map((item) => describeContent(item)).join("\n");
  if (content === "") content = result.isError ? "The tool failed without saying why." : "(no output)";
  return {
    content,
    ...(others.length > 0 ? { contents: others } : {}),
    ...(result.isError ? { success: false, errorCode: "mcp_tool_error" } : {}),
  };
}

function describeContent(item: unknown): string {
  const typed = item as { type?: string; mimeType?: string; resource?: { uri?: string; text?: string }; structuredContent?: unknown; uri?: string };
  switch (typed.type) {
    case "structured":
      return JSON.stringify(typed.structuredContent);
    case "resource":
      return typed.resource?.text ?? `[resource ${typed.resource?.uri ?? ""}]`;
    case "resource_link":
      return `[resource ${typed.uri ?? ""}]`;
    default:
      return `[${typed.type ?? "content"}${typed.mimeType ? ` ${typed.mimeType}` : ""}]`;
  }
}

/**
 * Where a tool that requires task support runs: a background record in the session's task registry
 * (agentType "mcp-task"), so it shows in /tasks and list_agents, reports its status messages as progress,
 * delivers its result like a background agent's, and is cancelled like one.
 */
export interface McpTaskHost {
  start(
    task: { toolCallId: string; name: string; displayName: string; description: string; prompt: string },
    body: (control: { signal: AbortSignal; progress(message: string): void; respond(text: string): void }) => Promise<void>,
  ): { id: string };
}

function isTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === -32001 || /timed out/i.test((error as Error).message ?? "");
}

export function createMcpTool(connection: McpConnection, info: McpToolInfo, tasks?: McpTaskHost): AnyTool {
  const serverName = connection.name;
  const name = mcpToolName(serverName, info.name);
  const title = info.annotations?.title ?? info.title ?? info.name;
  const readOnly = info.annotations?.readOnlyHint === true;
  const timeout = connection.server.config.timeout ?? DEFAULT_CALL_TIMEOUT_MS;
  const { $schema: _ignored, ...inputSchema } = info.inputSchema as Record<string, unknown>;
  return defineTool({
    name,
    description: info.description ?? `${info.name} from the MCP server ${serverName}`,
    parameters: argumentsSchema,
    inputSchema,
    mcp: { serverName, toolName: info.name },
    kind: "control",
    // Concurrency is for our own read-only tools; a server's hint is not a promise that calls do not interfere.
    readOnly: false,
    title: () => `${serverName}: ${title}`,
    permission: (args) => ({ kind: "mcp", serverName, toolName: info.name, toolTitle: title, args, readOnly }),
    execute: async (args, ctx) => {
      if (info.execution?.taskSupport === "required") return runAsTask(connection, info, name, args, ctx, tasks);
      // The session's preMcpToolCall hooks may give the request a `_meta` (null: none).
      const hooked = ctx.preMcpToolCall ? await ctx.preMcpToolCall({ toolCallId: ctx.toolCallId, serverName, toolName: info.name, arguments: args }) : {};
      const meta = hooked.meta ?? undefined;
      try {
        return outcomeOf(await connection.callTool(info.name, args, { signal: ctx.signal, timeout, onProgress: ctx.onProgress, ...(meta ? { meta } : {}) }));
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        if (isTimeout(error)) {
          throw new ToolError(
            `${name} took longer than ${Math.round(timeout / 1000)}s and was cancelled (the server was told to stop). Try again with a smaller request, or raise "timeout" for ${serverName} in mcp-config.json.`,
            "timeout",
          );
        }
        throw new ToolError(`The MCP server ${serverName} failed while running ${info.name}: ${(error as Error).message}`, "mcp_server_error");
      }
    },
  });
}

/** A tool that requires task support: in the background when the session has a task registry, else awaited here. */
async function runAsTask(
  connection: McpConnection,
  info: McpToolInfo,
  name: string,
  args: Record<string, unknown>,
  ctx: ToolContext,
  tasks: McpTaskHost | undefined,
): Promise<ToolOutcome> {
  const run = async (signal: AbortSignal, onStatus: (message: string) => void): Promise<ToolOutcome> =>
    outcomeOf(await connection.callToolAsTask(info.name, args, { signal, onStatus }));
  if (!tasks) return run(ctx.signal, ctx.onProgress);
  const started = tasks.start(
    {
      toolCallId: ctx.toolCallId,
      name,
      displayName: `${connection.name}: ${info.annotations?.title ?? info.title ?? info.name}`,
      description: info.description ?? name,
      prompt: JSON.stringify(args),
    },
    async (control) => {
      const outcome = await run(control.signal, control.progress);
      if (outcome.success === false) throw new Error(outcome.content);
      control.respond(outcome.content);
    },
  );
  return {
    content: `MCP task started in background with agent_id: ${started.id}. You will be notified when it finishes; then read its result with read_agent. Meanwhile go on with other work.`,
  };
}

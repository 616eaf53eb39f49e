import type { z } from "zod";
import type { PermissionRequest } from "../protocol/events/index.js";
import type { Answer, InteractionKind, InteractionRequests } from "../protocol/interactions.js";
import type { CommandBackend, FileBackend } from "./backends.js";

/** What a tool does, for the permission gate and the UI. */
export type ToolKind = "read" | "search" | "write" | "shell" | "control";

/** Everything a running tool may use besides its arguments. */
export interface ToolContext {
  /** The session's working directory; relative paths resolve against it. */
  cwd: string;
  toolCallId: string;
  /** Fires on interrupt or timeout; a tool stops its work (and its processes) when it does. */
  signal: AbortSignal;
  /** The session folder ($AGENT_HOME/session-state/<id>), where a tool may keep full outputs. */
  sessionDir: string;
  /** Streams output while the tool runs (tool.execution_partial_result). */
  onPartialOutput(chunk: string): void;
  /** Human-readable progress (tool.execution_progress). */
  onProgress(message: string): void;
  /**
   * Asks a person or the client (ask_user, plan approval, a client's tool, a form) through the session's
   * interaction broker; with nobody to ask, the kind's headless answer comes back at once.
   */
  ask<K extends InteractionKind>(kind: K, request: InteractionRequests[K]): Promise<Answer<K>>;
  /**
   * Checks something the call reaches only while it runs (a redirect's target) against the session's
   * permissions, as this tool; absent where no gate is wired (then the tool must refuse such steps).
   */
  checkPermission?(request: PermissionRequest): Promise<{ approved: boolean; message?: string }>;
  /** Reads and writes text files somewhere else than the local disk (a client's editor buffers); local when absent. */
  files?: FileBackend;
  /** Runs foreground commands somewhere else than a local process (a client's terminal); local when absent. */
  commands?: CommandBackend;
  /** The session's preMcpToolCall hooks, asked before an MCP tool's request goes out; absent when there are none. */
  preMcpToolCall?: McpCallHook;
}

/**
 * What a preMcpToolCall hook sees of an MCP request, and the `_meta` it wants sent: an object replaces it,
 * null removes it, undefined keeps what the request had.
 */
export type McpCallHook = (call: {
  toolCallId: string;
  serverName: string;
  toolName: string;
  arguments: Record<string, unknown>;
  meta?: Record<string, unknown>;
}) => Promise<{ meta?: Record<string, unknown> | null }>;

/** What a permission check may look at. */
export interface PermissionContext {
  cwd: string;
  toolCallId: string;
}

export interface ToolOutcome {
  /** Sent to the model: concise, possibly truncated, always saying when it was. */
  content: string;
  /** For display: the full output, a diff. */
  detailedContent?: string;
  /** False when the tool ran but failed (a command that could not start, a file that does not exist). */
  success?: boolean;
  /** A machine-readable failure code when success is false. */
  errorCode?: string;
  /** Lines changed in one file, for the session's change totals. */
  codeChange?: { path: string; linesAdded: number; linesRemoved: number };
  telemetry?: Record<string, unknown>;
  /** Content beyond text (an MCP server's images, resources, structured content), kept in the result for clients. */
  contents?: unknown[];
  /** Image files the model is shown (by path; the request reads them). */
  images?: { path: string; mediaType: string }[];
  /** The tool ends the run once this response's tools are done (the model declared the work finished). */
  finish?: { summary: string };
  /**
   * Refused outright (a person's plain no, a client tool's `rejected` result): the prompt's run ends once this
   * response's tools are done, without another model call, as Copilot's does.
   */
  rejected?: boolean;
}

/**
 * What the model reads of a call an interrupt stopped, or kept from starting: Copilot CLI's words (models are
 * tuned on them, and the Copilot SDK's recorded conversations expect them word for word).
 */
export const INTERRUPTED_TOOL_TEXT = "The execution of this tool, or a previous tool was interrupted.";

/** Throw from execute() for an expected failure; the message goes to the model as the tool result. */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly code = "tool_error",
  ) {
    super(message);
    this.name = "ToolError";
  }
}

/** A tool is a data object: name, description, zod schema, and an execute that honours its AbortSignal. */
export interface Tool<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly parameters: S;
  /**
   * A JSON Schema offered to the model as it is, for a tool described by someone else (an MCP server): the
   * tool set uses it instead of converting `parameters`, which then only needs to accept what it allows.
   */
  readonly inputSchema?: Record<string, unknown>;
  /** The MCP server and tool behind this tool, named in its events. */
  readonly mcp?: { serverName: string; toolName: string };
  /** An SDK application's own tool (Copilot's "custom" tools, `custom:<name>` in a tool filter). */
  readonly client?: boolean;
  readonly kind: ToolKind;
  /** Safe to run concurrently with other read-only calls from the same response. */
  readonly readOnly: boolean;
  /**
   * Calls of this tool that follow each other in one response run together, though it is not read-only
   * (the task tool: each subagent works in its own context, so several sync agents dispatched at once run at once).
   */
  readonly runsInParallel?: boolean;
  /**
   * Offered only to an agent whose `tools` list names it (the rem-agent's board and digest tools): never to
   * the main agent or to an agent that may use every tool.
   */
  readonly onlyWhenListed?: boolean;
  /**
   * Calling it again with the same arguments is how it is used: it waits for something that changes (a
   * background shell's output, an agent's answer), so the loop's repeat guard does not count its calls.
   */
  readonly polls?: boolean;
  /** A short title for the UI: the bash description, the file path, the pattern. */
  title?(args: z.infer<S>): string;
  /** What this call needs permission for, or null when it needs none. */
  permission(args: z.infer<S>, ctx: PermissionContext): PermissionRequest | null | Promise<PermissionRequest | null>;
  execute(args: z.infer<S>, ctx: ToolContext): Promise<ToolOutcome>;
}

/** Identity function that lets TypeScript infer the argument type of execute() from the schema. */
export function defineTool<S extends z.ZodType>(tool: Tool<S>): Tool<S> {
  return tool;
}

/** The erased form kept in registries. */
export type AnyTool = Tool<z.ZodType>;

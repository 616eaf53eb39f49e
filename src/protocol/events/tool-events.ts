import { z } from "zod";
import { ephemeral, persisted } from "./define-event.js";

export const toolResultSchema = z.object({
  /** Concise result sent to the model (possibly truncated). */
  content: z.string(),
  /** Full result for display, e.g. a diff. */
  detailedContent: z.string().optional(),
  /** Content beyond text (an MCP tool's images, resources, structured content). */
  contents: z.array(z.unknown()).optional(),
  /** Image files the model is shown after the tool results (the view tool on a picture), by path and media type. */
  images: z.array(z.object({ path: z.string(), mediaType: z.string() })).optional(),
});

/** tool.*: a tool call from request to result. */
export const toolEvents = {
  "tool.user_requested": persisted(z.object({ toolCallId: z.string(), toolName: z.string(), arguments: z.unknown().optional() })),
  "tool.execution_start": persisted(
    z.object({
      toolCallId: z.string(),
      toolName: z.string(),
      arguments: z.unknown().optional(),
      toolTitle: z.string().optional(),
      mcpServerName: z.string().optional(),
      mcpToolName: z.string().optional(),
      turnId: z.string().optional(),
      parentToolCallId: z.string().optional(),
      /**
       * Files the call changes as the permission gate resolved them (anyName: a directory it writes files of
       * unknown names under), and whether a person approved the call in a dialog. A resumed session rebuilds
       * its record of files the agent changed from these: a rule does not approve what such files define.
       */
      changedFiles: z.array(z.object({ path: z.string(), anyName: z.boolean().optional() })).optional(),
      approvedByUser: z.boolean().optional(),
    }),
  ),
  "tool.execution_partial_result": ephemeral(z.object({ toolCallId: z.string(), partialOutput: z.string() })),
  "tool.execution_progress": ephemeral(z.object({ toolCallId: z.string(), progressMessage: z.string() })),
  "tool.execution_complete": persisted(
    z.object({
      toolCallId: z.string(),
      success: z.boolean(),
      model: z.string().optional(),
      interactionId: z.string().optional(),
      isUserRequested: z.boolean().optional(),
      result: toolResultSchema.optional(),
      error: z.object({ message: z.string(), code: z.string().optional() }).optional(),
      toolTelemetry: z.record(z.string(), z.unknown()).optional(),
      mcpServerName: z.string().optional(),
      mcpToolName: z.string().optional(),
      turnId: z.string().optional(),
      parentToolCallId: z.string().optional(),
    }),
  ),
} as const;

/**
 * Tools a client implements (an SDK application's own functions): the model sees the client's name,
 * description and JSON Schema; a call passes the permission gate as kind `custom-tool` (unless the client
 * said it needs none), then asks the client through the interaction broker's `external_tool` kind and hands
 * the model what the client answered.
 */
import { z } from "zod";
import { defineTool, type AnyTool } from "../tools/define-tool.js";

/** What a client declares about one of its tools. */
export interface ClientToolDeclaration {
  name: string;
  description?: string;
  /** JSON Schema of the arguments, offered to the model as it is. */
  parameters?: Record<string, unknown>;
  /** The client vouches for the tool: no permission request. */
  skipPermission?: boolean;
}

const argumentsSchema = z.record(z.string(), z.unknown());

export function createClientTool(declaration: ClientToolDeclaration, owner: { sessionId: string; cwd: string }): AnyTool {
  const { $schema: _ignored, ...inputSchema } = declaration.parameters ?? { type: "object", properties: {} };
  const description = declaration.description ?? `${declaration.name}, a tool of the client`;
  return defineTool({
    name: declaration.name,
    description,
    parameters: argumentsSchema,
    inputSchema: { type: "object", ...inputSchema },
    kind: "control",
    readOnly: false,
    permission: (args) => (declaration.skipPermission ? null : { kind: "custom-tool", toolName: declaration.name, toolDescription: description, args }),
    execute: async (args, ctx) => {
      const answer = await ctx.ask("external_tool", {
        sessionId: owner.sessionId,
        toolCallId: ctx.toolCallId,
        toolName: declaration.name,
        arguments: args,
        workingDirectory: owner.cwd,
      });
      return { content: answer.reply.content, ...(answer.reply.success === false ? { success: false, errorCode: "client_tool_failed" } : {}) };
    },
  });
}

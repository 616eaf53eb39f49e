/**
 * Tools a client implements (an SDK application's own functions): the model sees the client's name,
 * description and JSON Schema; a call passes the permission gate as kind `custom-tool` (unless the client
 * said it needs none), then asks the client through the interaction broker's `external_tool` kind and hands
 * the model what the client answered.
 */
import { z } from "zod";
import { defineTool, type AnyTool, type ToolOutcome } from "../tools/define-tool.js";
import { lazyParameters } from "../tools/lazy-parameters.js";
import type { ClientToolSpec } from "../protocol/commands.js";
import type { ExternalToolReply } from "../protocol/interactions.js";
import { clientToolThrewText, INTERRUPTED_TOOL_TEXT } from "./tool-texts.js";

/** What a client declares about one of its tools. */
export type ClientToolDeclaration = ClientToolSpec;

const argumentsSchema = lazyParameters(() => z.record(z.string(), z.unknown()));

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
    client: true,
    permission: (args) => (declaration.skipPermission ? null : { kind: "custom-tool", toolName: declaration.name, toolDescription: description, args }),
    execute: async (args, ctx) => {
      const answer = await ctx.ask("external_tool", {
        sessionId: owner.sessionId,
        toolCallId: ctx.toolCallId,
        toolName: declaration.name,
        arguments: args,
        workingDirectory: owner.cwd,
      });
      if (answer.source === "aborted") return { content: INTERRUPTED_TOOL_TEXT, success: false, errorCode: "aborted" };
      return clientToolOutcome(declaration.name, args, answer.reply);
    },
  });
}

/** The client's answer as the model reads it; a failure's code is the SDK's resultType (`rejected` ends the turn). */
function clientToolOutcome(name: string, args: unknown, reply: ExternalToolReply): ToolOutcome {
  if (reply.threw) return { content: clientToolThrewText(name, args), success: false, errorCode: "failure" };
  if (reply.success !== false) return { content: reply.content };
  const errorCode = reply.resultType ?? "failure";
  return { content: reply.content, success: false, errorCode, ...(errorCode === "rejected" ? { rejected: true } : {}) };
}

/**
 * The tools of the clients holding an open session (join_client), each client's kept until it leaves: the
 * client that opened the session brings its own this way too, so its tools go when it does.
 */
export class JoinedClientTools {
  private readonly byClient = new Map<string, AnyTool[]>();

  /** Why the client cannot bring these tools: a name another client's tool has (two clients never answer one name). */
  clash(client: string, declarations: readonly ClientToolDeclaration[]): string | undefined {
    const others = new Set([...this.byClient].filter(([holder]) => holder !== client).flatMap(([, tools]) => tools.map((tool) => tool.name)));
    const taken = declarations.filter((declaration) => others.has(declaration.name)).map((declaration) => declaration.name);
    return taken.length > 0 ? `Another client of this session already provides the tool(s) ${taken.join(", ")}.` : undefined;
  }

  /** The client's tools from now on, replacing what it brought before. */
  join(client: string, declarations: readonly ClientToolDeclaration[], owner: { sessionId: string; cwd: string }): void {
    if (declarations.length === 0) this.byClient.delete(client);
    else
      this.byClient.set(
        client,
        declarations.map((declaration) => createClientTool(declaration, owner)),
      );
  }

  leave(client: string): void {
    this.byClient.delete(client);
  }

  tools(): AnyTool[] {
    return [...this.byClient.values()].flat();
  }
}

/**
 * Where the context window goes, source by source (the SDK's metadata.getContextAttribution) and message by
 * message (getContextHeaviestMessages): /context's breakdown split further, from what is in memory and with
 * the same four-characters-a-token estimate (token-accounting.ts); no model call.
 */
import type { ChatMessage, ToolSchema } from "../../provider/types.js";
import { messageTokens, tokensForChars, toolSchemaChars, type ContextBreakdown } from "./token-accounting.js";

export interface AttributionEntry {
  kind: string;
  id: string;
  label: string;
  tokens: number;
  parentId?: string;
}

export interface ContextAttribution {
  totalTokens: number;
  modelId: string;
  modelSource: "selected";
  promptTokenLimit: number;
  limit: number;
  bufferTokens: number;
  compactionThreshold: number;
  categories: { systemPrompt: number; customInstructions: number; systemTools: number; mcpTools: number; messages: number; freeSpace: number; buffer: number };
  entries: AttributionEntry[];
  compactions: { count: number };
}

export interface HeaviestMessage {
  id: string;
  label: string;
  role: string;
  tokens: number;
}

/** What the window holds now: the breakdown, the tool schemas sent and the conversation's messages. */
export interface WindowContents {
  breakdown: ContextBreakdown;
  schemas: readonly ToolSchema[];
  messages: readonly ChatMessage[];
}

/** Each message with the label a person reads it by (`tool: bash`), in conversation order. */
function labelled(messages: readonly ChatMessage[]): HeaviestMessage[] {
  const toolOfCall = new Map<string, string>();
  return messages.map((message, index) => {
    if (message.role === "assistant") for (const call of message.toolCalls ?? []) toolOfCall.set(call.id, call.name);
    const label = message.role === "tool" ? `tool: ${toolOfCall.get(message.toolCallId) ?? "unknown"}` : message.role;
    return { id: `message:${index}`, label, role: message.role, tokens: messageTokens(message) };
  });
}

export function heaviestMessages(contents: WindowContents, limit = 10): { totalTokens: number; messages: HeaviestMessage[] } {
  const sorted = labelled(contents.messages).sort((a, b) => b.tokens - a.tokens);
  return { totalTokens: contents.breakdown.currentTokens, messages: sorted.slice(0, Math.max(0, limit)) };
}

/**
 * `serverOf` names the MCP server of a tool (undefined for any other tool); `instructionChars` is how much of
 * the system prompt the custom instruction files are; `compactions` how many compactions the session made.
 */
export function contextAttribution(
  contents: WindowContents,
  serverOf: (toolName: string) => string | undefined,
  instructionChars: number,
  compactions: number,
): ContextAttribution {
  const { breakdown } = contents;
  const instructions = Math.min(tokensForChars(instructionChars), breakdown.systemTokens);
  const entries: AttributionEntry[] = [{ kind: "system", id: "system:prompt", label: "System prompt", tokens: breakdown.systemTokens - instructions }];
  if (instructions > 0) entries.push({ kind: "system", id: "system:instructions", label: "Custom instructions", tokens: instructions });
  const servers = new Map<string, number>();
  const definitions: AttributionEntry[] = [];
  for (const schema of contents.schemas) {
    const server = serverOf(schema.name);
    const tokens = tokensForChars(toolSchemaChars([schema]));
    if (server) servers.set(server, (servers.get(server) ?? 0) + tokens);
    definitions.push({
      kind: "toolDefinition",
      id: `toolDefinition:${schema.name}`,
      label: schema.name,
      tokens,
      ...(server ? { parentId: `mcpServer:${server}` } : {}),
    });
  }
  for (const [server, tokens] of servers) entries.push({ kind: "mcpServer", id: `mcpServer:${server}`, label: server, tokens });
  entries.push(...definitions);
  // The conversation, by who put it there: the user's prompts, the answers, each tool's results.
  // No per-entry attributes: the SDK's schema (a map) and Copilot 1.0.102's (a list) disagree on their shape.
  const bySource = new Map<string, AttributionEntry>();
  for (const message of labelled(contents.messages)) {
    const tool = message.label.startsWith("tool: ") ? message.label.slice("tool: ".length) : undefined;
    const id = tool ? `tool:${tool}` : `message:${message.role}`;
    const entry = bySource.get(id) ?? { kind: tool ? "tool" : "message", id, label: tool ?? message.role, tokens: 0 };
    entry.tokens += message.tokens;
    bySource.set(id, entry);
  }
  entries.push(...bySource.values());
  return {
    totalTokens: breakdown.currentTokens,
    modelId: breakdown.model,
    modelSource: "selected",
    promptTokenLimit: breakdown.tokenLimit,
    limit: breakdown.tokenLimit,
    bufferTokens: 0,
    compactionThreshold: breakdown.compactAt ?? breakdown.tokenLimit,
    categories: {
      systemPrompt: breakdown.systemTokens - instructions,
      customInstructions: instructions,
      systemTools: breakdown.toolsTokens,
      mcpTools: breakdown.mcpToolsTokens,
      messages: breakdown.messagesTokens,
      freeSpace: breakdown.freeTokens,
      buffer: 0,
    },
    entries,
    compactions: { count: compactions },
  };
}

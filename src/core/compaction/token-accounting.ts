/**
 * How full the model's context is, without a tokenizer. The endpoint tells us the truth once per response:
 * usage.prompt_tokens, the size of what was sent. What joined the conversation since (the answer itself,
 * tool results, a new prompt) is estimated at four characters a token; the answer is counted by what is
 * kept of it, not by completion_tokens, which include reasoning that is never sent back. Why an estimate: an
 * OpenAI-compatible endpoint may run any model with any tokenizer, and shipping one per model would cost
 * start-up time and size for a number that only has to be roughly right: it is re-anchored on the
 * endpoint's own count after every response, the threshold (80 %) leaves a margin, and an endpoint that
 * still answers "context length exceeded" gets one compaction and a retry.
 */
import type { ChatMessage, ToolSchema } from "../../provider/types.js";

export const CHARS_PER_TOKEN = 4;

export function tokensForChars(chars: number): number {
  return Math.ceil(Math.max(0, chars) / CHARS_PER_TOKEN);
}

/** The characters a message puts into a request: its text and, for an assistant, its tool calls. */
export function messageChars(message: ChatMessage): number {
  if (message.role !== "assistant" || !message.toolCalls) return message.content.length;
  let chars = message.content.length;
  for (const call of message.toolCalls) chars += call.name.length + call.arguments.length + call.id.length + 16;
  return chars;
}

export function messageTokens(message: ChatMessage): number {
  return tokensForChars(messageChars(message));
}

/** Tool definitions are sent with every request as JSON: their size counts against the limit too. */
export function toolSchemaChars(schemas: readonly ToolSchema[]): number {
  let chars = 0;
  for (const schema of schemas) chars += schema.name.length + schema.description.length + JSON.stringify(schema.parameters).length + 24;
  return chars;
}

/**
 * The endpoint's last count plus an estimate of what came after. `observe` anchors on a response's prompt
 * tokens and the conversation's size when that request was sent; `rebase` moves it when a compaction
 * shrank the conversation, so the count stays in the endpoint's frame.
 */
export class TokenGauge {
  private anchor: { tokens: number; chars: number } | undefined;

  observe(promptTokens: number, charsSent: number): void {
    this.anchor = { tokens: promptTokens, chars: charsSent };
  }

  /** The conversation was compacted: an anchored count moves to the new size (`tokens` in the same frame). */
  rebase(tokens: number, conversationChars: number): void {
    if (this.anchor) this.anchor = { tokens, chars: conversationChars };
  }

  get anchored(): boolean {
    return this.anchor !== undefined;
  }

  /** `conversationChars`: system prompt and messages now; `toolChars`: the tool definitions sent with them. */
  current(conversationChars: number, toolChars: number): number {
    if (!this.anchor) return tokensForChars(conversationChars + toolChars);
    const added = conversationChars - this.anchor.chars;
    // A rewind can leave less than was sent: the count goes down with it rather than staying at the old one.
    return added >= 0 ? this.anchor.tokens + tokensForChars(added) : Math.max(0, this.anchor.tokens - Math.floor(-added / CHARS_PER_TOKEN));
  }
}

/** /context's breakdown of the prompt limit. */
export interface ContextBreakdown {
  model: string;
  tokenLimit: number;
  /** What the next request would carry, as far as is known (the endpoint's last count plus an estimate). */
  currentTokens: number;
  systemTokens: number;
  /** Built-in (and other non-MCP) tool definitions. */
  toolsTokens: number;
  mcpToolsTokens: number;
  messagesTokens: number;
  messagesLength: number;
  freeTokens: number;
  /** Where automatic compaction starts (threshold × limit); undefined when it is off. */
  compactAt?: number;
  /** Memory's context board, when memory is on: its tokens (not counted in systemTokens) and its budget. */
  contextBoard?: { tokens: number; budgetTokens: number };
}

/**
 * Splits the current count into its parts. The parts are estimates from characters; when the endpoint's
 * count is larger (its tokenizer is less generous), the difference goes to the messages, which is where
 * the estimate is roughest.
 */
export function contextBreakdown(input: {
  model: string;
  tokenLimit: number;
  currentTokens: number;
  systemChars: number;
  toolChars: number;
  mcpToolChars: number;
  messagesChars: number;
  messagesLength: number;
  compactAt?: number;
}): ContextBreakdown {
  const systemTokens = tokensForChars(input.systemChars);
  const mcpToolsTokens = tokensForChars(input.mcpToolChars);
  const toolsTokens = tokensForChars(input.toolChars - input.mcpToolChars);
  const estimatedMessages = tokensForChars(input.messagesChars);
  const messagesTokens = Math.max(estimatedMessages, input.currentTokens - systemTokens - mcpToolsTokens - toolsTokens);
  const used = systemTokens + toolsTokens + mcpToolsTokens + messagesTokens;
  return {
    model: input.model,
    tokenLimit: input.tokenLimit,
    currentTokens: used,
    systemTokens,
    toolsTokens,
    mcpToolsTokens,
    messagesTokens,
    messagesLength: input.messagesLength,
    freeTokens: Math.max(0, input.tokenLimit - used),
    ...(input.compactAt !== undefined ? { compactAt: input.compactAt } : {}),
  };
}

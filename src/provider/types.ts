/** The provider boundary: our own message and response shapes; only the adapters know a wire format. */

export interface ChatToolCall {
  id: string;
  name: string;
  /** The arguments exactly as the model sent them (a JSON string, possibly invalid). */
  arguments: string;
}

/**
 * An image (or a PDF document, "application/pdf") attached to a user message: where it is, read only when a
 * request is built. `title`: a document's name, as the model is given it.
 */
export interface ChatImage {
  path: string;
  mediaType: string;
  title?: string;
}

export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string; images?: ChatImage[] }
  | { role: "assistant"; content: string; toolCalls?: ChatToolCall[]; reasoning?: string; opaque?: OpaqueReasoning }
  | { role: "tool"; toolCallId: string; content: string };

/**
 * The part of a model's reasoning only its own wire can read, kept in the session log (assistant.message's
 * fields of the same names) and passed back with the conversation so reasoning carries across turns: a
 * Responses reasoning item's encrypted content, an Anthropic thinking block's signature. Each wire reads its
 * own field and ignores the other's.
 */
export interface OpaqueReasoning {
  encryptedContent?: string;
  reasoningOpaque?: string;
}

/** A tool as the model sees it: name, description and a JSON Schema for its arguments. */
export interface ToolSchema {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  reasoningTokens?: number;
}

export interface ChatRequest {
  messages: ChatMessage[];
  tools: ToolSchema[];
  signal: AbortSignal;
  /** "none": the tools are offered (the history mentions them) but the model must answer in text (compaction). */
  toolChoice?: "none";
  /** Extra HTTP headers on this request (an application's, for one prompt). */
  headers?: Record<string, string>;
}

/** Called while a response streams in. */
export interface StreamHandlers {
  onText(delta: string): void;
  onReasoning(delta: string): void;
  /** A tool call's name became known (its arguments are still streaming). */
  onToolCallStart?(call: { id: string; name: string; index: number }): void;
}

export interface ChatResponse {
  content: string;
  reasoning: string;
  toolCalls: ChatToolCall[];
  usage?: TokenUsage;
  /** The wire's own finish reason, as sent (for the record). */
  finishReason: string | null;
  /**
   * The response was cut by the output-token limit, whatever the wire calls it (Chat Completions'
   * finish_reason "length", Responses' status "incomplete" for max_output_tokens, Anthropic's stop_reason
   * "max_tokens"): its text stops mid-answer and its last tool call may stop mid-arguments. Each adapter maps
   * its wire onto this; the loop reads only this.
   */
  truncated: boolean;
  /** The model the endpoint says answered. */
  model: string;
  /** Milliseconds from sending the request to the first streamed token. */
  timeToFirstTokenMs?: number;
  /** The reasoning's opaque part, to be logged and passed back (see OpaqueReasoning). */
  encryptedContent?: string;
  reasoningOpaque?: string;
}

export interface ModelLimits {
  maxPromptTokens: number;
  maxOutputTokens?: number;
}

/** One attempt of one model call. Failures are thrown as ProviderError; retrying is the caller's policy. */
export interface ChatProvider {
  readonly model: string;
  readonly limits: ModelLimits;
  /** The endpoint path, for usage records ("/chat/completions"). */
  readonly apiEndpoint: string;
  stream(request: ChatRequest, handlers: StreamHandlers): Promise<ChatResponse>;
  /** The models the endpoint offers (GET /models), for the model picker. */
  listModels?(signal?: AbortSignal): Promise<string[]>;
  /**
   * When no limit was configured: reads the model's context length from the endpoint's listing (vLLM's
   * max_model_len, OpenRouter's context_length…) into `limits`, once. Never fails (the default stays).
   */
  probeLimits?(signal?: AbortSignal): Promise<void>;
}

/**
 * The Anthropic adapter (type "anthropic"): the Messages API through the official `@anthropic-ai/sdk`
 * (loaded only when a model on this wire is first used), streamed and read by anthropic-events.ts. The key
 * goes as `x-api-key`, a bearer token as `Authorization`. The system prompt, the tools and the conversation
 * so far are marked for prompt caching (`cache_control`), so each turn of a tool loop pays only for what is
 * new. Extended thinking is asked for when a reasoning effort is set, as a token budget; its blocks come
 * back with signatures and are passed back unchanged, as the API requires during tool use.
 *
 * Endpoint quirks handled: a base URL ending in /v1 (the SDK adds /v1/messages itself); consecutive
 * messages of one role (Anthropic wants them alternating: they are merged, tool results first); tool input
 * that is not a JSON object; a `max_tokens` above the model's maximum (the 400 names the maximum: sent again
 * with it); thinking refused by the model or a compatible server (sent again without it, and not asked for
 * again; a model that wants adaptive thinking says so, and gets it at the same effort); thinking switched on in the middle of a tool loop whose last answer had none (thinking waits for
 * the next prompt rather than fail the request).
 */
import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "@anthropic-ai/sdk/core/error";
import type { ContentBlockParam, MessageCreateParamsStreaming, MessageParam, TextBlockParam, Tool } from "@anthropic-ai/sdk/resources/messages/messages";
import { AnthropicAssembler, thinkingBlocks } from "./anthropic-events.js";
import { classifyConnectionFailure, classifyHttpFailure, classifyOtherFailure, ProviderError, type RequestContext } from "./errors.js";
import { userContentParts } from "./image-parts.js";
import { nodeFetch } from "./node-fetch.js";
import { wireModelOf, type ProviderConfig, type ReasoningEffort } from "./provider-config.js";
import { credentialOf, streamAnswer, withCredential } from "./stream-call.js";
import type { ChatMessage, ChatProvider, ChatRequest, ChatResponse, ModelLimits, StreamHandlers, ToolSchema } from "./types.js";

/**
 * The SDK's base client (auth, headers, errors, timeouts) without its resources, so the bundle leaves out its
 * other APIs; no credential files are read. Messages are posted directly: the SDK's `messages.create` would
 * print deprecation notices to the console, over the TUI.
 */
class MessagesClient extends BaseAnthropic {
  protected override _shouldResolveDefaultCredentials(): boolean {
    return false;
  }
}

/** The output limit asked for when none is configured (the API requires one). */
const DEFAULT_MAX_TOKENS = 32_000;
/** Thinking budgets per effort; the output limit is raised above the budget when it must be. */
const THINKING_BUDGET: Record<ReasoningEffort, number> = { none: 0, minimal: 1024, low: 2048, medium: 8192, high: 16_384, xhigh: 32_768 };
const ADAPTIVE_EFFORT = { none: "low", minimal: "low", low: "low", medium: "medium", high: "high", xhigh: "xhigh" } as const;
const EPHEMERAL = { type: "ephemeral" } as const;

/** The key goes as `x-api-key` (set here: the SDK's own handling of a key has changed between versions), a token as `Authorization`. */
function createClient(config: ProviderConfig, key: string | undefined): MessagesClient {
  const bearer = config.credential?.kind === "bearer";
  return new MessagesClient({
    baseURL: config.baseUrl.replace(/\/+$/, "").replace(/\/v1$/, ""),
    apiKey: null,
    authToken: bearer ? (key ?? null) : null,
    maxRetries: 0, // retries are our policy (provider/retry.ts)
    timeout: config.timeoutMs,
    // No key at all (a local server): the request goes without one rather than failing in the SDK.
    defaultHeaders: { ...config.headers, ...(key ? (bearer ? {} : { "x-api-key": key }) : { authorization: null }) },
    fetch: config.fetch ?? nodeFetch,
    logLevel: "off",
  });
}

/** A user message's blocks: its text, its images, its PDFs as documents (citable when `citations`). */
function userBlocks(message: Extract<ChatMessage, { role: "user" }>, citations: boolean): ContentBlockParam[] {
  if (!message.images?.length) return [{ type: "text", text: message.content }];
  return userContentParts(message.content, message.images).map((part): ContentBlockParam => {
    if (part.type === "file") {
      const data = /^data:application\/pdf;base64,(.*)$/s.exec(part.file.file_data ?? "")?.[1] ?? "";
      return {
        type: "document",
        source: { type: "base64", media_type: "application/pdf", data },
        ...(part.file.filename ? { title: part.file.filename } : {}),
        ...(citations ? { citations: { enabled: true } } : {}),
      };
    }
    if (part.type !== "image_url") return { type: "text", text: part.type === "text" ? part.text : "" };
    const match = /^data:([^;]+);base64,(.*)$/s.exec(part.image_url.url);
    if (!match) return { type: "image", source: { type: "url", url: part.image_url.url } };
    const mediaType = match[1] as "image/png" | "image/jpeg" | "image/gif" | "image/webp";
    return { type: "image", source: { type: "base64", media_type: mediaType, data: match[2] ?? "" } };
  });
}

function toolInput(args: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(args);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The conversation as Anthropic messages: roles alternating, tool results in the user turn after their calls. */
export function toAnthropicMessages(
  messages: ChatMessage[],
  withThinking: boolean,
  citations = false,
): { system: string | undefined; messages: MessageParam[] } {
  let system: string | undefined;
  const turns: { role: "user" | "assistant"; content: ContentBlockParam[] }[] = [];
  const push = (role: "user" | "assistant", blocks: ContentBlockParam[]) => {
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case "system":
        system = system === undefined ? message.content : `${system}\n\n${message.content}`;
        break;
      case "user":
        push("user", userBlocks(message, citations));
        break;
      case "tool":
        push("user", [{ type: "tool_result", tool_use_id: message.toolCallId, content: message.content }]);
        break;
      case "assistant": {
        const thinking = withThinking ? thinkingBlocks(message.reasoning, message.opaque?.reasoningOpaque) : [];
        push("assistant", [
          ...(thinking as ContentBlockParam[]),
          ...(message.content.trim() !== "" ? [{ type: "text" as const, text: message.content }] : []),
          ...(message.toolCalls ?? []).map((call) => ({ type: "tool_use" as const, id: call.id, name: call.name, input: toolInput(call.arguments) })),
        ]);
        break;
      }
    }
  }
  if (turns[0]?.role === "assistant") turns.unshift({ role: "user", content: [{ type: "text", text: "(continued)" }] });
  // The conversation so far is cached up to its last block: the next turn of a tool loop reads it back.
  const lastBlock = turns.at(-1)?.content.at(-1);
  if (lastBlock && lastBlock.type !== "thinking" && lastBlock.type !== "redacted_thinking") Object.assign(lastBlock, { cache_control: EPHEMERAL });
  return { system, messages: turns };
}

/** Whether the tool loop in progress (the turns since the last prompt) began its answer with thinking. */
function loopHasThinking(messages: ChatMessage[]): boolean {
  const last = messages.at(-1);
  if (last?.role !== "tool") return true;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === "user") return true;
    if (message?.role === "assistant" && message.toolCalls?.length) return thinkingBlocks(message.reasoning, message.opaque?.reasoningOpaque).length > 0;
  }
  return true;
}

function toAnthropicTools(tools: ToolSchema[]): Tool[] {
  return tools.map((tool, index) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.parameters as Tool["input_schema"],
    ...(index === tools.length - 1 ? { cache_control: EPHEMERAL } : {}),
  }));
}

function classifyAnthropicError(error: unknown, signal: AbortSignal, context: RequestContext): ProviderError {
  if (error instanceof ProviderError) return error;
  if (signal.aborted || error instanceof APIUserAbortError || (error instanceof Error && error.name === "AbortError")) {
    return new ProviderError("aborted", "The request was interrupted.", { cause: error });
  }
  if (error instanceof APIConnectionTimeoutError) return new ProviderError("network", "The model endpoint did not answer in time.", { cause: error });
  if (error instanceof APIConnectionError) return classifyConnectionFailure(error, error.cause, context);
  if (error instanceof APIError && typeof error.status === "number") {
    return classifyHttpFailure(
      {
        status: error.status,
        message: error.apiMessage ?? error.message,
        code: `${error.errorCode ?? ""} ${error.type ?? ""}`,
        headers: error.headers,
        requestId: error.requestID ?? undefined,
        cause: error,
      },
      context,
    );
  }
  return classifyOtherFailure(error);
}

export function createAnthropicProvider(config: ProviderConfig): ChatProvider {
  const limits: ModelLimits = { maxPromptTokens: config.maxPromptTokens, maxOutputTokens: config.maxOutputTokens };
  const credential = credentialOf(config);
  const context: RequestContext = { endpoint: config.baseUrl, model: config.model, api: "Anthropic Messages" };
  let built: { key: string | undefined; client: MessagesClient } | undefined;
  const client = async () => {
    const key = credential ? await credential.get() : undefined;
    if (!built || built.key !== key) built = { key, client: createClient(config, key) };
    return built.client;
  };
  // Learned from the endpoint's refusals (see the header), for the rest of this provider's life.
  let maxTokensCap: number | undefined;
  /** "enabled": a token budget; "adaptive": the model decides, at an effort (newer models want it); "off": refused. */
  let thinkingMode: "enabled" | "adaptive" | "off" = "enabled";

  const body = (request: ChatRequest): MessageCreateParamsStreaming => {
    const budget = thinkingMode === "off" || !config.reasoningEffort ? 0 : THINKING_BUDGET[config.reasoningEffort];
    const thinking = budget > 0 && loopHasThinking(request.messages);
    let maxTokens = config.maxOutputTokens ?? DEFAULT_MAX_TOKENS;
    if (thinking && maxTokens <= budget) maxTokens = budget + 4096;
    if (maxTokensCap !== undefined) maxTokens = Math.min(maxTokens, maxTokensCap);
    const { system, messages } = toAnthropicMessages(request.messages, thinking, config.citations === true);
    return {
      model: wireModelOf(config),
      max_tokens: maxTokens,
      ...(system !== undefined ? { system: [{ type: "text", text: system, cache_control: EPHEMERAL } satisfies TextBlockParam] } : {}),
      messages,
      ...(request.tools.length > 0 ? { tools: toAnthropicTools(request.tools) } : {}),
      ...(request.toolChoice && request.tools.length > 0 ? { tool_choice: { type: request.toolChoice } } : {}),
      ...(thinking && thinkingMode === "adaptive"
        ? { thinking: { type: "adaptive" }, output_config: { effort: ADAPTIVE_EFFORT[config.reasoningEffort ?? "medium"] } }
        : {}),
      ...(thinking && thinkingMode === "enabled" && maxTokens > budget ? { thinking: { type: "enabled", budget_tokens: budget } } : {}),
      stream: true,
    };
  };

  const attempt = (request: ChatRequest, handlers: StreamHandlers): Promise<ChatResponse> =>
    streamAnswer(config, request, handlers, {
      reader: (model, events, limits) => new AnthropicAssembler(model, events, limits),
      send: async (signal) =>
        (await client())
          .post("/v1/messages", { body: body(request), stream: true, signal, ...(request.headers ? { headers: request.headers } : {}) })
          .asResponse(),
      classify: (error) => classifyAnthropicError(error, request.signal, context),
    });

  const stream = async (request: ChatRequest, handlers: StreamHandlers): Promise<ChatResponse> => {
    for (let tries = 0; ; tries++) {
      try {
        return await attempt(request, handlers);
      } catch (error) {
        if (!(error instanceof ProviderError) || error.kind !== "bad_request" || tries >= 3) throw error;
        const cap = /max_tokens:?\s*\d+\s*>\s*(\d+)/i.exec(error.message);
        if (cap?.[1] && maxTokensCap === undefined) maxTokensCap = Number(cap[1]);
        else if (/adaptive/i.test(error.message) && thinkingMode === "enabled" && config.reasoningEffort) thinkingMode = "adaptive";
        else if (/thinking|effort/i.test(error.message) && thinkingMode !== "off" && config.reasoningEffort) thinkingMode = "off";
        else throw error;
      }
    }
  };

  return {
    model: config.model,
    limits,
    apiEndpoint: "/v1/messages",
    stream: (request, handlers) => withCredential(config, credential, () => stream(request, handlers)),
    async listModels(signal?: AbortSignal): Promise<string[]> {
      return withCredential(config, credential, async () => {
        try {
          const response = (await (await client()).get("/v1/models", { signal: signal ?? null })) as { data?: { id?: string }[] };
          return (response.data ?? []).flatMap((entry) => (entry.id ? [entry.id] : [])).sort();
        } catch (error) {
          throw classifyAnthropicError(error, signal ?? new AbortController().signal, context);
        }
      });
    },
  };
}

/**
 * The Chat Completions adapter: streams one model call through the official `openai` client and turns
 * its chunks into our ChatResponse (model-response.ts reads the body, chat-chunks.ts validates and assembles
 * it). Tool calls arrive as deltas split across chunks and are assembled by index; reasoning arrives as
 * `reasoning_content` (vLLM, DeepSeek) or `reasoning` (OpenRouter, Ollama) when the endpoint sends it.
 */
import type { ChatCompletionCreateParamsStreaming, ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import { wireModelOf, type ProviderConfig } from "./provider-config.js";
import { classifyProviderError } from "./errors.js";
import { ResponseAssembler } from "./chat-chunks.js";
import { userContentParts } from "./image-parts.js";
import { listedContextLength, promptLimitFor } from "./model-limits.js";
import { openAIClients } from "./openai-client.js";
import { credentialOf, streamAnswer, withCredential } from "./stream-call.js";
import type { ChatMessage, ChatProvider, ChatRequest, ChatResponse, ModelLimits, StreamHandlers, ToolSchema } from "./types.js";

export { DEFAULT_RESPONSE_TIMEOUT_MS } from "./stream-call.js";

function toWireMessages(messages: ChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case "system":
        return { role: "system", content: message.content };
      case "user":
        return { role: "user", content: message.images?.length ? userContentParts(message.content, message.images) : message.content };
      case "tool":
        return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
      case "assistant":
        return message.toolCalls && message.toolCalls.length > 0
          ? {
              role: "assistant",
              content: message.content === "" ? null : message.content,
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: "function" as const,
                function: { name: call.name, arguments: call.arguments },
              })),
            }
          : { role: "assistant", content: message.content };
    }
  });
}

function toWireTools(tools: ToolSchema[]): ChatCompletionTool[] {
  return tools.map((tool) => ({
    type: "function" as const,
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}

/** The model listing's entries, for the picker and the prompt-limit probe (shared by both OpenAI wires). */
export function openAIListing(
  config: ProviderConfig,
  client: ReturnType<typeof openAIClients>,
  limits: ModelLimits,
): Pick<ChatProvider, "probeLimits" | "listModels"> {
  let probing: Promise<void> | undefined;
  return {
    probeLimits(signal?: AbortSignal): Promise<void> {
      if (config.maxPromptTokensFrom !== "default") return Promise.resolve();
      probing ??= (async () => {
        try {
          for await (const entry of (await client()).models.list({ signal })) {
            if (entry.id !== wireModelOf(config)) continue;
            const length = listedContextLength(entry);
            if (length !== undefined) limits.maxPromptTokens = promptLimitFor(length, config.maxOutputTokens);
            return;
          }
        } catch {
          // No listing (404, an old server, no key): the default limit stays.
        }
      })();
      return probing;
    },
    async listModels(signal?: AbortSignal): Promise<string[]> {
      return withCredential(config, credentialOf(config), async () => {
        try {
          const models: string[] = [];
          for await (const model of (await client()).models.list({ signal })) models.push(model.id);
          return models.sort();
        } catch (error) {
          throw classifyProviderError(error, signal, { endpoint: config.baseUrl });
        }
      });
    },
  };
}

export function createOpenAIChatProvider(config: ProviderConfig): ChatProvider {
  const limits: ModelLimits = { maxPromptTokens: config.maxPromptTokens, maxOutputTokens: config.maxOutputTokens };
  const client = openAIClients(config);
  const credential = credentialOf(config);
  const body = (request: ChatRequest): ChatCompletionCreateParamsStreaming => ({
    model: wireModelOf(config),
    messages: toWireMessages(request.messages),
    ...(request.tools.length > 0 ? { tools: toWireTools(request.tools) } : {}),
    ...(request.toolChoice && request.tools.length > 0 ? { tool_choice: request.toolChoice } : {}),
    ...(config.maxOutputTokens ? { max_tokens: config.maxOutputTokens } : {}),
    ...(config.reasoningEffort ? { reasoning_effort: config.reasoningEffort } : {}),
    stream: true,
    stream_options: { include_usage: true },
  });
  const attempt = (request: ChatRequest, handlers: StreamHandlers): Promise<ChatResponse> =>
    streamAnswer(config, request, handlers, {
      reader: (model, events, limits) => new ResponseAssembler(model, events, limits),
      send: async (signal) =>
        (await client()).chat.completions.create(body(request), { signal, ...(request.headers ? { headers: request.headers } : {}) }).asResponse(),
      classify: (error) => classifyProviderError(error, request.signal, { endpoint: config.baseUrl, model: config.model }),
    });
  return {
    model: config.model,
    limits,
    apiEndpoint: "/chat/completions",
    ...openAIListing(config, client, limits),
    stream: (request, handlers) => withCredential(config, credential, () => attempt(request, handlers)),
  };
}

/**
 * The Chat Completions adapter: streams one model call through the official `openai` client and turns
 * its chunks into our ChatResponse (chat-response.ts reads the body, chat-chunks.ts validates and assembles
 * it). Tool calls arrive as deltas split across chunks and are assembled by index; reasoning arrives as
 * `reasoning_content` (vLLM, DeepSeek) or `reasoning` (OpenRouter, Ollama) when the endpoint sends it.
 */
import OpenAI, { AzureOpenAI } from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import type { ProviderConfig } from "./provider-config.js";
import { classifyProviderError } from "./errors.js";
import { ResponseAssembler } from "./chat-chunks.js";
import { readChatResponse } from "./chat-response.js";
import { StreamDeadlines } from "./stream-deadlines.js";
import { nodeFetch } from "./node-fetch.js";
import { userContentParts } from "./image-parts.js";
import { listedContextLength, promptLimitFor } from "./model-limits.js";
import type { ChatMessage, ChatProvider, ChatRequest, ChatResponse, ModelLimits, StreamHandlers, ToolSchema } from "./types.js";

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

/** The longest a single response may stream, unless provider.responseTimeoutMs says otherwise. */
export const DEFAULT_RESPONSE_TIMEOUT_MS = 30 * 60_000;
/** Output (estimated tokens) after which a response that never finishes is cut off, when no limit is set. */
const DEFAULT_OUTPUT_GUARD_TOKENS = 100_000;

/** The endpoint was asked for at most `maxOutputTokens`; some margin for our estimate before cutting it off. */
function outputGuard(maxOutputTokens: number | undefined): number {
  return maxOutputTokens ? Math.ceil(maxOutputTokens * 1.25) + 64 : DEFAULT_OUTPUT_GUARD_TOKENS;
}

export function createOpenAIClient(config: ProviderConfig): OpenAI {
  const common = {
    apiKey: config.apiKey ?? "not-needed",
    maxRetries: 0, // retries are our policy (provider/retry.ts), visible as assistant.turn_retry
    timeout: config.timeoutMs,
    defaultHeaders: config.headers,
    fetch: nodeFetch,
  };
  if (config.type === "azure") {
    return new AzureOpenAI({ ...common, endpoint: config.baseUrl, apiVersion: config.azureApiVersion, deployment: config.model });
  }
  return new OpenAI({ ...common, baseURL: config.baseUrl });
}

export function createOpenAIChatProvider(config: ProviderConfig, client = createOpenAIClient(config)): ChatProvider {
  const limits: ModelLimits = { maxPromptTokens: config.maxPromptTokens, maxOutputTokens: config.maxOutputTokens };
  let probing: Promise<void> | undefined;
  return {
    model: config.model,
    limits,
    apiEndpoint: "/chat/completions",
    probeLimits(signal?: AbortSignal): Promise<void> {
      if (config.maxPromptTokensFrom !== "default") return Promise.resolve();
      probing ??= (async () => {
        try {
          for await (const entry of client.models.list({ signal })) {
            if (entry.id !== config.model) continue;
            const length = listedContextLength(entry);
            if (length !== undefined) limits.maxPromptTokens = promptLimitFor(length, config.maxOutputTokens);
            return;
          }
        } catch {
          // No listing (404, an old server): the default limit stays.
        }
      })();
      return probing;
    },
    async listModels(signal?: AbortSignal): Promise<string[]> {
      try {
        const models: string[] = [];
        for await (const model of client.models.list({ signal })) models.push(model.id);
        return models.sort();
      } catch (error) {
        throw classifyProviderError(error, signal, { endpoint: config.baseUrl, ...(config.apiKeySource ? { keySource: config.apiKeySource } : {}) });
      }
    },
    async stream(request: ChatRequest, handlers: StreamHandlers): Promise<ChatResponse> {
      // A stream that sends no data for too long (keep-alives do not count) is treated as a dropped
      // connection (and retried); one that never ends (a model looping on whitespace) is stopped at the overall limit.
      const deadlines = new StreamDeadlines({
        idleMs: config.streamIdleTimeoutMs,
        overallMs: config.responseTimeoutMs ?? DEFAULT_RESPONSE_TIMEOUT_MS,
        signal: request.signal,
      });
      const { signal } = deadlines;
      const started = performance.now();
      const assembler = new ResponseAssembler(config.model, handlers, { maxOutputTokens: outputGuard(config.maxOutputTokens) });
      try {
        const response = await client.chat.completions
          .create(
            {
              model: config.model,
              messages: toWireMessages(request.messages),
              ...(request.tools.length > 0 ? { tools: toWireTools(request.tools) } : {}),
              ...(request.toolChoice && request.tools.length > 0 ? { tool_choice: request.toolChoice } : {}),
              ...(config.maxOutputTokens ? { max_tokens: config.maxOutputTokens } : {}),
              stream: true,
              stream_options: { include_usage: true },
            },
            { signal },
          )
          .asResponse();
        await readChatResponse(response, { assembler, endpoint: config.baseUrl, onData: deadlines.onData, onBytes: deadlines.onBytes });
        // A body cut by an abort can end quietly; an interrupted response is not a complete one.
        if (signal.aborted) throw signal.reason ?? new Error("aborted");
      } catch (error) {
        throw (
          deadlines.explain() ??
          classifyProviderError(error, request.signal, {
            endpoint: config.baseUrl,
            model: config.model,
            ...(config.apiKeySource ? { keySource: config.apiKeySource } : {}),
          })
        );
      } finally {
        deadlines.dispose();
      }
      return {
        content: assembler.content,
        reasoning: assembler.reasoning,
        toolCalls: assembler.toolCalls,
        usage: assembler.usage,
        finishReason: assembler.finishReason,
        truncated: assembler.finishReason === "length",
        model: assembler.model,
        timeToFirstTokenMs: assembler.firstTokenAt === undefined ? undefined : Math.round(assembler.firstTokenAt - started),
      };
    },
  };
}

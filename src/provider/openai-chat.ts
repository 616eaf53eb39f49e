/**
 * The Chat Completions adapter: streams one model call through the official `openai` client and turns
 * its chunks into our ChatResponse. Tool calls arrive as deltas split across chunks and are assembled
 * here by index; reasoning arrives as `reasoning_content` (vLLM, DeepSeek) or `reasoning` (OpenRouter,
 * Ollama) when the endpoint sends it.
 */
import OpenAI, { AzureOpenAI } from "openai";
import type { ChatCompletionChunk, ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import type { ProviderConfig } from "./provider-config.js";
import { classifyProviderError, ProviderError } from "./errors.js";
import { nodeFetch } from "./node-fetch.js";
import type { ChatMessage, ChatProvider, ChatRequest, ChatResponse, StreamHandlers, ToolSchema } from "./types.js";

function toWireMessages(messages: ChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case "system":
        return { role: "system", content: message.content };
      case "user":
        return { role: "user", content: message.content };
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

/** Non-standard delta fields some endpoints send. */
function reasoningDelta(delta: ChatCompletionChunk.Choice.Delta): string {
  const extra = delta as ChatCompletionChunk.Choice.Delta & { reasoning_content?: unknown; reasoning?: unknown };
  if (typeof extra.reasoning_content === "string") return extra.reasoning_content;
  if (typeof extra.reasoning === "string") return extra.reasoning;
  return "";
}

interface PartialToolCall {
  id: string;
  name: string;
  arguments: string;
  announced: boolean;
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
  return {
    model: config.model,
    limits: { maxPromptTokens: config.maxPromptTokens, maxOutputTokens: config.maxOutputTokens },
    apiEndpoint: "/chat/completions",
    async listModels(signal?: AbortSignal): Promise<string[]> {
      try {
        const models: string[] = [];
        for await (const model of client.models.list({ signal })) models.push(model.id);
        return models.sort();
      } catch (error) {
        throw classifyProviderError(error, signal);
      }
    },
    async stream(request: ChatRequest, handlers: StreamHandlers): Promise<ChatResponse> {
      // A stream that goes quiet for too long is treated as a dropped connection (and retried).
      const idle = new AbortController();
      const signal = AbortSignal.any([request.signal, idle.signal]);
      let idleTimer: NodeJS.Timeout | undefined;
      const armIdleTimer = () => {
        clearTimeout(idleTimer);
        idleTimer = setTimeout(() => idle.abort(), config.streamIdleTimeoutMs);
      };
      const started = performance.now();
      let firstTokenAt: number | undefined;
      let content = "";
      let reasoning = "";
      let finishReason: string | null = null;
      let model = config.model;
      let usage: ChatResponse["usage"];
      const calls = new Map<number, PartialToolCall>();
      try {
        armIdleTimer();
        const stream = await client.chat.completions.create(
          {
            model: config.model,
            messages: toWireMessages(request.messages),
            ...(request.tools.length > 0 ? { tools: toWireTools(request.tools) } : {}),
            ...(config.maxOutputTokens ? { max_tokens: config.maxOutputTokens } : {}),
            stream: true,
            stream_options: { include_usage: true },
          },
          { signal },
        );
        for await (const chunk of stream) {
          armIdleTimer();
          if (chunk.model) model = chunk.model;
          if (chunk.usage) {
            usage = {
              inputTokens: chunk.usage.prompt_tokens,
              outputTokens: chunk.usage.completion_tokens,
              cacheReadTokens: chunk.usage.prompt_tokens_details?.cached_tokens,
              reasoningTokens: chunk.usage.completion_tokens_details?.reasoning_tokens,
            };
          }
          const choice = chunk.choices[0];
          if (!choice) continue;
          const delta = choice.delta;
          const thinking = reasoningDelta(delta);
          if (thinking) {
            firstTokenAt ??= performance.now();
            reasoning += thinking;
            handlers.onReasoning(thinking);
          }
          if (delta.content) {
            firstTokenAt ??= performance.now();
            content += delta.content;
            handlers.onText(delta.content);
          }
          for (const callDelta of delta.tool_calls ?? []) {
            firstTokenAt ??= performance.now();
            let call = calls.get(callDelta.index);
            if (!call) {
              call = { id: "", name: "", arguments: "", announced: false };
              calls.set(callDelta.index, call);
            }
            if (callDelta.id && !call.id) call.id = callDelta.id;
            if (callDelta.function?.name && !call.name) call.name = callDelta.function.name;
            call.arguments += callDelta.function?.arguments ?? "";
            if (call.name && !call.announced) {
              call.announced = true;
              handlers.onToolCallStart?.({ id: call.id, name: call.name, index: callDelta.index });
            }
          }
          if (choice.finish_reason) finishReason = choice.finish_reason;
        }
        // The SDK ends the iteration quietly when the signal fires after the response started.
        if (signal.aborted) throw signal.reason ?? new Error("aborted");
      } catch (error) {
        if (idle.signal.aborted && !request.signal.aborted) {
          throw new ProviderError("network", `The model endpoint sent nothing for ${Math.round(config.streamIdleTimeoutMs / 1000)} s.`);
        }
        throw classifyProviderError(error, request.signal);
      } finally {
        clearTimeout(idleTimer);
      }
      const toolCalls = [...calls.entries()]
        .sort(([a], [b]) => a - b)
        .map(([index, call]) => ({ id: call.id || `call_${index}_${Date.now().toString(36)}`, name: call.name, arguments: call.arguments }));
      return {
        content,
        reasoning,
        toolCalls,
        usage,
        finishReason,
        model,
        timeToFirstTokenMs: firstTokenAt === undefined ? undefined : Math.round(firstTokenAt - started),
      };
    },
  };
}

/**
 * The Responses API adapter (wireApi "responses", what OpenAI recommends for GPT-5 and its Codex models):
 * the system prompt as `instructions`, the conversation as input items (messages, function calls and their
 * outputs, and the reasoning items an earlier answer returned, passed back by their encrypted content), the
 * tools as function tools. `store: false`: nothing is kept on OpenAI's side, so reasoning carries across
 * turns only through `include: ["reasoning.encrypted_content"]` and the log. The stream is read by
 * responses-events.ts; timeouts, retries and errors are shared with Chat Completions (stream-call.ts).
 *
 * Endpoint quirks handled: a model or server that refuses the reasoning parameters (a non-reasoning model,
 * an older vLLM or Azure deployment) or the encrypted content of another model's reasoning answers 400; the
 * request is then sent once more without them, and this provider stops sending them. Item ids are not sent
 * back (with store: false the server cannot look them up).
 */
import type { ChatCompletionContentPart } from "openai/resources/chat/completions";
import type { ResponseCreateParamsStreaming, ResponseInputContent, ResponseInputItem } from "openai/resources/responses/responses";
import { classifyProviderError, ProviderError } from "./errors.js";
import { userContentParts } from "./image-parts.js";
import { openAIClients } from "./openai-client.js";
import { openAIListing } from "./openai-chat.js";
import { wireModelOf, type ProviderConfig } from "./provider-config.js";
import { ResponsesAssembler } from "./responses-events.js";
import { credentialOf, streamAnswer, withCredential } from "./stream-call.js";
import type { ChatMessage, ChatProvider, ChatRequest, ChatResponse, ModelLimits, StreamHandlers, ToolSchema } from "./types.js";

/** Models that reason and summarise their reasoning when asked (OpenAI's o-series, GPT-5 and Codex, gpt-oss). */
const REASONING_MODEL = /(^|\/)(o\d|gpt-5|codex|gpt-oss)/i;
/** A 400 about the reasoning parameters or reasoning passed back. */
const REASONING_REFUSED = /reasoning|encrypted|include|summary|decrypt/i;

function inputParts(text: string, images: NonNullable<Extract<ChatMessage, { role: "user" }>["images"]>): ResponseInputContent[] {
  return userContentParts(text, images).map((part: ChatCompletionContentPart): ResponseInputContent => {
    if (part.type === "image_url") return { type: "input_image", image_url: part.image_url.url, detail: "auto" };
    if (part.type === "file")
      return { type: "input_file", ...(part.file.filename ? { filename: part.file.filename } : {}), file_data: part.file.file_data ?? "" };
    return { type: "input_text", text: part.type === "text" ? part.text : "" };
  });
}

/** The reasoning items an assistant message carried, to pass back (no ids: with store false they are unknown). */
function reasoningItems(message: Extract<ChatMessage, { role: "assistant" }>): ResponseInputItem[] {
  const sealed = message.opaque?.encryptedContent?.split("\n").filter((line) => line !== "") ?? [];
  return sealed.map(
    (encrypted) =>
      ({
        type: "reasoning",
        summary: sealed.length === 1 && message.reasoning ? [{ type: "summary_text", text: message.reasoning }] : [],
        encrypted_content: encrypted,
      }) as unknown as ResponseInputItem,
  );
}

export function toResponsesInput(messages: ChatMessage[], passReasoning: boolean): { instructions?: string; input: ResponseInputItem[] } {
  let instructions: string | undefined;
  const input: ResponseInputItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "system":
        if (instructions === undefined) instructions = message.content;
        else input.push({ role: "developer", content: message.content });
        break;
      case "user":
        input.push({ role: "user", content: message.images?.length ? inputParts(message.content, message.images) : message.content });
        break;
      case "tool":
        input.push({ type: "function_call_output", call_id: message.toolCallId, output: message.content });
        break;
      case "assistant":
        if (passReasoning) input.push(...reasoningItems(message));
        if (message.content !== "") input.push({ role: "assistant", content: message.content });
        for (const call of message.toolCalls ?? []) input.push({ type: "function_call", call_id: call.id, name: call.name, arguments: call.arguments });
        break;
    }
  }
  return { ...(instructions !== undefined ? { instructions } : {}), input };
}

function toResponsesTools(tools: ToolSchema[]): NonNullable<ResponseCreateParamsStreaming["tools"]> {
  return tools.map((tool) => ({ type: "function" as const, name: tool.name, description: tool.description, parameters: tool.parameters, strict: false }));
}

export function createOpenAIResponsesProvider(config: ProviderConfig): ChatProvider {
  const limits: ModelLimits = { maxPromptTokens: config.maxPromptTokens, maxOutputTokens: config.maxOutputTokens };
  const client = openAIClients(config);
  const credential = credentialOf(config);
  // Cleared for good once the endpoint refuses them (see the header).
  let sendReasoning = true;
  const reasoning = config.reasoningEffort || REASONING_MODEL.test(wireModelOf(config));

  const body = (request: ChatRequest): ResponseCreateParamsStreaming => ({
    model: wireModelOf(config),
    ...toResponsesInput(request.messages, sendReasoning),
    ...(request.tools.length > 0 ? { tools: toResponsesTools(request.tools), parallel_tool_calls: true } : {}),
    ...(request.toolChoice && request.tools.length > 0 ? { tool_choice: request.toolChoice } : {}),
    ...(config.maxOutputTokens ? { max_output_tokens: config.maxOutputTokens } : {}),
    ...(sendReasoning && reasoning ? { reasoning: { summary: "auto" as const, ...(config.reasoningEffort ? { effort: config.reasoningEffort } : {}) } } : {}),
    ...(sendReasoning ? { include: ["reasoning.encrypted_content" as const] } : {}),
    store: false,
    stream: true,
  });

  const attempt = (request: ChatRequest, handlers: StreamHandlers): Promise<ChatResponse> =>
    streamAnswer(config, request, handlers, {
      reader: (model, events, limits) => new ResponsesAssembler(model, events, limits),
      send: async (signal) =>
        (await client()).responses.create(body(request), { signal, ...(request.headers ? { headers: request.headers } : {}) }).asResponse(),
      classify: (error) => classifyProviderError(error, request.signal, { endpoint: config.baseUrl, model: config.model, api: "Responses" }),
    });

  const stream = async (request: ChatRequest, handlers: StreamHandlers): Promise<ChatResponse> => {
    try {
      return await attempt(request, handlers);
    } catch (error) {
      if (!(error instanceof ProviderError) || error.kind !== "bad_request" || !sendReasoning || !REASONING_REFUSED.test(error.message)) throw error;
      sendReasoning = false;
      return attempt(request, handlers);
    }
  };

  return {
    model: config.model,
    limits,
    apiEndpoint: "/responses",
    ...openAIListing(config, client, limits),
    stream: (request, handlers) => withCredential(config, credential, () => stream(request, handlers)),
  };
}

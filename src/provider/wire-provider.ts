/**
 * The provider for a configuration, on its wire: Chat Completions (loaded with the engine, as most models
 * use it), the Responses API or Anthropic Messages. The last two are loaded when a provider on them is made,
 * so a session that never uses a model on them never loads their code (nor the Anthropic SDK).
 */
import { createOpenAIChatProvider } from "./openai-chat.js";
import { wireOf, type ProviderConfig } from "./provider-config.js";
import type { ChatProvider, ModelLimits } from "./types.js";

type Factory = (config: ProviderConfig) => ChatProvider;

/** A provider whose adapter is imported when first needed; until then it knows only its model and limits. */
function lazyProvider(config: ProviderConfig, apiEndpoint: string, load: () => Promise<Factory>): ChatProvider {
  const initial: ModelLimits = { maxPromptTokens: config.maxPromptTokens, maxOutputTokens: config.maxOutputTokens };
  let real: ChatProvider | undefined;
  let loading: Promise<ChatProvider> | undefined;
  const provider = (): Promise<ChatProvider> =>
    (loading ??= load().then((make) => {
      real = make(config);
      // Whatever the engine already knew of the limits stays its view: the adapter's own object is the one kept.
      Object.assign(real.limits, initial);
      return real;
    }));
  // Made means about to be used (the session's model, a subagent's, /model's): the adapter starts loading now,
  // alongside the rest of the session's start, rather than in front of the first request.
  provider().catch(() => undefined);
  return {
    model: config.model,
    get limits() {
      return real?.limits ?? initial;
    },
    apiEndpoint,
    stream: async (request, handlers) => (await provider()).stream(request, handlers),
    listModels: async (signal) => {
      const loaded = await provider();
      return loaded.listModels ? loaded.listModels(signal) : [config.model];
    },
    probeLimits: async (signal) => (await provider()).probeLimits?.(signal),
  };
}

export function createWireProvider(config: ProviderConfig): ChatProvider {
  switch (wireOf(config)) {
    case "responses":
      return lazyProvider(config, "/responses", async () => (await import("./openai-responses.js")).createOpenAIResponsesProvider);
    case "anthropic":
      return lazyProvider(config, "/v1/messages", async () => (await import("./anthropic-messages.js")).createAnthropicProvider);
    case "completions":
      return createOpenAIChatProvider(config);
  }
}

/**
 * A session's providers: its own, and a factory for the other models it switches to or its subagents use,
 * each resolved through the model registry (providers.json's `provider/id` names, or the configured
 * endpoint), so a subagent may run on another provider than the main agent. A subagent's requests carry
 * `x-initiator: sub-agent`, so an endpoint (and the test suite's scripted server) can tell them from the
 * person's. Every provider lists the registry's models for /model and the task tool.
 */
import { ModelRegistry } from "./model-registry.js";
import type { ProviderConfig, ReasoningEffort } from "./provider-config.js";
import type { ChatProvider } from "./types.js";

export interface ProviderOptions {
  initiator?: "sub-agent";
  /** The effort for this model (/model's choice); the configured one otherwise. */
  reasoningEffort?: ReasoningEffort;
}

export interface SessionProviders {
  provider: ChatProvider;
  createProvider(model: string, options?: ProviderOptions): ChatProvider;
}

/** A provider for a name nothing serves: it says so when used, rather than failing where it is made. */
function unknownModel(name: string, config: ProviderConfig, registry: ModelRegistry): ChatProvider {
  return {
    model: name,
    limits: { maxPromptTokens: config.maxPromptTokens },
    apiEndpoint: "",
    stream: () => Promise.reject(registry.unknown(name)),
  };
}

export function sessionProviders(
  config: ProviderConfig,
  make: (config: ProviderConfig) => ChatProvider,
  registry: ModelRegistry = new ModelRegistry(config),
): SessionProviders {
  const fallback = registry.fallback ? make(registry.fallback) : undefined;
  const listFallback = fallback?.listModels
    ? (signal?: AbortSignal) => (fallback.listModels as (signal?: AbortSignal) => Promise<string[]>)(signal)
    : undefined;
  const withList = (provider: ChatProvider): ChatProvider =>
    Object.assign(Object.create(provider) as ChatProvider, {
      listModels: (signal?: AbortSignal) => registry.listModels(listFallback ? () => listFallback(signal) : undefined),
    });
  const build = (model: string, options: ProviderOptions = {}): ChatProvider => {
    const resolved = registry.resolve(model);
    if (!resolved) return unknownModel(model, config, registry);
    const effort = options.reasoningEffort ?? resolved.reasoningEffort ?? config.reasoningEffort;
    return withList(
      make({
        ...resolved,
        ...(effort ? { reasoningEffort: effort } : {}),
        ...(options.initiator ? { headers: { ...resolved.headers, "x-initiator": options.initiator } } : {}),
      }),
    );
  };
  return {
    provider: withList(make(config)),
    createProvider: build,
  };
}

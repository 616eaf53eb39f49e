/**
 * A session's providers: its own, and a factory for the other models it switches to or its subagents use.
 * A subagent's requests carry `x-initiator: sub-agent`, so an endpoint (and the test suite's scripted
 * server) can tell them from the person's.
 */
import type { ProviderConfig } from "./provider-config.js";
import type { ChatProvider } from "./types.js";

export interface SessionProviders {
  provider: ChatProvider;
  createProvider(model: string, options?: { initiator?: "sub-agent" }): ChatProvider;
}

export function sessionProviders(config: ProviderConfig, make: (config: ProviderConfig) => ChatProvider): SessionProviders {
  return {
    provider: make(config),
    createProvider: (model, options) =>
      make({ ...config, model, ...(options?.initiator ? { headers: { ...config.headers, "x-initiator": options.initiator } } : {}) }),
  };
}

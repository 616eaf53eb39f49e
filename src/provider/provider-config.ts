/** How to reach a model endpoint: resolved by src/config from flags, environment, settings and providers.json. */
import type { Credential } from "./credentials.js";
import type { RetryPolicy } from "./retry.js";

/** Copilot's provider types: an OpenAI-compatible API, Azure OpenAI, Anthropic. */
export type ProviderType = "openai" | "azure" | "anthropic";
/** The OpenAI wire: Chat Completions (the default) or the Responses API. Anthropic has its own. */
export type WireApi = "completions" | "responses";
export const REASONING_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh"] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

export interface ProviderConfig {
  type: ProviderType;
  /** Default "completions"; ignored for type "anthropic". */
  wireApi?: WireApi;
  baseUrl: string;
  /** A key given as text (tests, the SDK); `credential` wins when both are set. */
  apiKey?: string;
  /** Where the key or token comes from, and how to get it again after a 401. */
  credential?: Credential;
  /** The model as the session names it (`provider/id` for a providers.json model): shown, recorded, switched to. */
  model: string;
  /** What is sent as the model on the wire, when it differs from `model` (providers.json's wireModel). */
  wireModel?: string;
  /** The providers.json provider this model belongs to. */
  providerName?: string;
  /** Sent in each wire's own way: reasoning_effort, reasoning.effort, an Anthropic thinking budget. */
  reasoningEffort?: ReasoningEffort;
  /** Native citations for attached documents, where the wire has them (Anthropic's; an SDK app's enableCitations). */
  citations?: boolean;
  maxPromptTokens: number;
  /** "default": no one set the limit; the endpoint's model listing may know the model's real one (probeLimits). */
  maxPromptTokensFrom?: "default";
  maxOutputTokens?: number;
  headers: Record<string, string>;
  azureApiVersion: string;
  /** Time allowed until the response starts. */
  timeoutMs: number;
  /** Longest silence allowed inside a streamed response. */
  streamIdleTimeoutMs: number;
  /** Longest a whole response may take, start to end (a stream that never ends). Default 30 min. */
  responseTimeoutMs?: number;
  retry: RetryPolicy;
  /**
   * How requests reach the endpoint when not straight over the network: an SDK client that registered
   * itself as the model transport (llmInference.setProvider) carries each one for its sessions.
   */
  fetch?: ProviderFetch;
}

/** A `fetch` for the wire clients (openai, Anthropic): the same shape as the global one. */
export type ProviderFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The model name to put on the wire. */
export function wireModelOf(config: ProviderConfig): string {
  return config.wireModel ?? config.model;
}

/** Which wire a configuration speaks. */
export function wireOf(config: ProviderConfig): "completions" | "responses" | "anthropic" {
  return config.type === "anthropic" ? "anthropic" : (config.wireApi ?? "completions");
}

/** How to reach a model endpoint: resolved by src/config from flags, environment and settings. */
import type { RetryPolicy } from "./retry.js";

export interface ProviderConfig {
  type: "openai" | "azure";
  baseUrl: string;
  apiKey?: string;
  /** Where the key came from ("OPENAI_API_KEY", "provider.apiKey in …/settings.json"): a 401 names it. */
  apiKeySource?: string;
  model: string;
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
}

/**
 * The official `openai` client for an OpenAI or Azure provider, on both OpenAI wires (Chat Completions and
 * the Responses API). The key is resolved first (a key command runs once) and the client is built with it
 * as plain text, so Azure sends it as `api-key` and OpenAI as `Authorization: Bearer`; a bearer token goes
 * to Azure as its token provider. A new key (after a 401) gets a new client.
 */
import OpenAI, { AzureOpenAI } from "openai";
import { nodeFetch } from "./node-fetch.js";
import { wireModelOf, type ProviderConfig } from "./provider-config.js";
import { credentialOf } from "./stream-call.js";

export function createOpenAIClient(config: ProviderConfig, key = config.apiKey): OpenAI {
  const bearer = config.credential?.kind === "bearer";
  const common = {
    maxRetries: 0, // retries are our policy (provider/retry.ts), visible as assistant.turn_retry
    timeout: config.timeoutMs,
    defaultHeaders: config.headers,
    fetch: config.fetch ?? nodeFetch,
  };
  if (config.type === "azure") {
    const auth = bearer && key ? { azureADTokenProvider: () => Promise.resolve(key) } : { apiKey: key ?? "not-needed" };
    return new AzureOpenAI({ ...common, ...auth, endpoint: config.baseUrl, apiVersion: config.azureApiVersion, deployment: wireModelOf(config) });
  }
  return new OpenAI({ ...common, apiKey: key ?? "not-needed", baseURL: config.baseUrl });
}

/** The client for the current key: built on first use, and again when the key changes. */
export function openAIClients(config: ProviderConfig): () => Promise<OpenAI> {
  const credential = credentialOf(config);
  let built: { key: string | undefined; client: OpenAI } | undefined;
  return async () => {
    const key = credential ? await credential.get() : undefined;
    if (built?.key !== key || !built) built = { key, client: createOpenAIClient(config, key) };
    return built.client;
  };
}

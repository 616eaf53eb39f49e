/**
 * Which endpoint and model to use. Highest first: flags (--model), environment (OPENAI_BASE_URL,
 * OPENAI_API_KEY, AGENT_MODEL, AGENT_MAX_PROMPT_TOKENS, and Copilot's COPILOT_PROVIDER_BASE_URL,
 * COPILOT_PROVIDER_API_KEY, COPILOT_MODEL, COPILOT_PROVIDER_MAX_PROMPT_TOKENS as aliases), then
 * $AGENT_HOME/settings.json's `provider`.
 */
import type { ProviderConfig } from "../provider/provider-config.js";
import { defaultRetryPolicy } from "../provider/retry.js";
import type { Settings } from "./settings.js";

export type { ProviderConfig } from "../provider/provider-config.js";

export const DEFAULT_MAX_PROMPT_TOKENS = 128_000;
const OPENAI_BASE_URL = "https://api.openai.com/v1";

export type ProviderConfigResult = { ok: true; config: ProviderConfig } | { ok: false; message: string };

function firstSet(...values: (string | undefined)[]): string | undefined {
  return values.map((value) => value?.trim()).find((value) => value !== undefined && value !== "");
}

function positiveInt(value: string | undefined, name: string): number | undefined | Error {
  if (value === undefined || value.trim() === "") return undefined;
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : new Error(`${name} must be a positive integer (got "${value}").`);
}

function parseHeaderLines(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of (text ?? "").split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

export function howToConfigure(settingsFile: string): string {
  return [
    "Configure an OpenAI-compatible endpoint and a model, either in the environment:",
    "  export OPENAI_BASE_URL=http://localhost:11434/v1   # Ollama, vLLM, LM Studio, OpenRouter, Azure…",
    "  export OPENAI_API_KEY=…                             # if the endpoint needs a key",
    "  export AGENT_MODEL=qwen3-coder                      # or pass --model",
    `or in ${settingsFile}:`,
    '  { "provider": { "baseUrl": "http://localhost:11434/v1", "model": "qwen3-coder", "apiKeyEnv": "MY_KEY" } }',
    "Examples for OpenAI, Azure, Ollama and vLLM: .copilot-example/settings.json",
  ].join("\n");
}

export function resolveProviderConfig(input: {
  flags: { model?: string };
  env: NodeJS.ProcessEnv;
  settings: Settings;
  settingsFile: string;
}): ProviderConfigResult {
  const { flags, env, settings, settingsFile } = input;
  const provider = settings.provider ?? {};
  const keyFromSettings = provider.apiKeyEnv ? env[provider.apiKeyEnv] : provider.apiKey;
  const apiKey = firstSet(env.OPENAI_API_KEY, env.COPILOT_PROVIDER_API_KEY, keyFromSettings);
  const apiKeySource = firstSet(env.OPENAI_API_KEY)
    ? "OPENAI_API_KEY"
    : firstSet(env.COPILOT_PROVIDER_API_KEY)
      ? "COPILOT_PROVIDER_API_KEY"
      : !firstSet(keyFromSettings)
        ? undefined
        : provider.apiKeyEnv
          ? `${provider.apiKeyEnv} (named by provider.apiKeyEnv in ${settingsFile})`
          : `provider.apiKey in ${settingsFile}`;
  let baseUrl = firstSet(env.OPENAI_BASE_URL, env.COPILOT_PROVIDER_BASE_URL, provider.baseUrl);
  if (!baseUrl && firstSet(env.OPENAI_API_KEY)) baseUrl = OPENAI_BASE_URL;
  const model = firstSet(flags.model, env.AGENT_MODEL, env.COPILOT_MODEL, provider.model, settings.model);

  if (!baseUrl) return { ok: false, message: `No model endpoint is configured.\n${howToConfigure(settingsFile)}` };
  if (!model) return { ok: false, message: `No model is configured for ${baseUrl}.\n${howToConfigure(settingsFile)}` };
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)");
  } catch {
    return { ok: false, message: `The endpoint "${baseUrl}" is not an http(s) URL.\n${howToConfigure(settingsFile)}` };
  }
  if (provider.apiKeyEnv && !env[provider.apiKeyEnv] && !apiKey) {
    return { ok: false, message: `${settingsFile} names apiKeyEnv "${provider.apiKeyEnv}", but that variable is not set.` };
  }
  const promptVariable = firstSet(env.AGENT_MAX_PROMPT_TOKENS) ? "AGENT_MAX_PROMPT_TOKENS" : "COPILOT_PROVIDER_MAX_PROMPT_TOKENS";
  const maxPrompt = positiveInt(env[promptVariable], promptVariable);
  const maxOutput = positiveInt(env.COPILOT_PROVIDER_MAX_OUTPUT_TOKENS, "COPILOT_PROVIDER_MAX_OUTPUT_TOKENS");
  if (maxPrompt instanceof Error) return { ok: false, message: maxPrompt.message };
  if (maxOutput instanceof Error) return { ok: false, message: maxOutput.message };
  const typeFromEnv = firstSet(env.COPILOT_PROVIDER_TYPE);
  if (typeFromEnv && typeFromEnv !== "openai" && typeFromEnv !== "azure") {
    return { ok: false, message: `COPILOT_PROVIDER_TYPE must be "openai" or "azure" (got "${typeFromEnv}").` };
  }
  return {
    ok: true,
    config: {
      type: (typeFromEnv as "openai" | "azure" | undefined) ?? provider.type ?? "openai",
      baseUrl,
      apiKey,
      ...(apiKeySource ? { apiKeySource } : {}),
      model,
      maxPromptTokens: maxPrompt ?? provider.maxPromptTokens ?? DEFAULT_MAX_PROMPT_TOKENS,
      ...(maxPrompt === undefined && provider.maxPromptTokens === undefined ? { maxPromptTokensFrom: "default" as const } : {}),
      maxOutputTokens: maxOutput ?? provider.maxOutputTokens,
      headers: { ...provider.headers, ...parseHeaderLines(env.COPILOT_PROVIDER_HEADERS) },
      azureApiVersion: provider.azureApiVersion ?? "2024-10-21",
      timeoutMs: provider.timeoutMs ?? 600_000,
      streamIdleTimeoutMs: provider.streamIdleTimeoutMs ?? 180_000,
      ...(provider.responseTimeoutMs ? { responseTimeoutMs: provider.responseTimeoutMs } : {}),
      retry: { ...defaultRetryPolicy, ...provider.retry },
    },
  };
}

/**
 * Which endpoint and model to use when no providers.json model is named. Highest first: flags (--model,
 * --reasoning-effort), environment (OPENAI_BASE_URL, OPENAI_API_KEY, AGENT_MODEL, AGENT_MAX_PROMPT_TOKENS,
 * and Copilot's BYOK variables: COPILOT_PROVIDER_BASE_URL, _TYPE, _WIRE_API, _API_KEY, _API_KEY_COMMAND,
 * _BEARER_TOKEN, _HEADERS, _AZURE_API_VERSION, _MODEL_ID, _WIRE_MODEL, _MAX_PROMPT_TOKENS, _MAX_OUTPUT_TOKENS,
 * COPILOT_MODEL), then $AGENT_HOME/settings.json's `provider`.
 */
import { REASONING_EFFORTS, type ProviderConfig, type ProviderType, type ReasoningEffort, type WireApi } from "../provider/provider-config.js";
import { defaultRetryPolicy } from "../provider/retry.js";
import { fileCandidates, pickCredential, type CredentialCandidate } from "./credential-sources.js";
import type { Settings } from "./settings.js";

export type { ProviderConfig } from "../provider/provider-config.js";

export const DEFAULT_MAX_PROMPT_TOKENS = 128_000;
const OPENAI_BASE_URL = "https://api.openai.com/v1";
const ANTHROPIC_BASE_URL = "https://api.anthropic.com";

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
    "Several providers at once (OpenAI's Responses API, Anthropic, Azure, Ollama): providers.json, as in .copilot-example/providers.json",
  ].join("\n");
}

const TYPES: readonly ProviderType[] = ["openai", "azure", "anthropic"];
const WIRE_APIS: readonly WireApi[] = ["completions", "responses"];

/** A value that must be one of `allowed`: the value, undefined when unset, or a message. */
function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], name: string): T | undefined | Error {
  if (value === undefined) return undefined;
  return (allowed as readonly string[]).includes(value)
    ? (value as T)
    : new Error(`${name} must be ${allowed.map((item) => `"${item}"`).join(", ")} (got "${value}").`);
}

/** The reasoning effort from the flag, then the settings (ours, or Copilot's effortLevel). */
export function resolveReasoningEffort(flag: string | undefined, settings: Settings): ReasoningEffort | undefined | Error {
  const named = oneOf(flag, REASONING_EFFORTS, "--reasoning-effort");
  if (named !== undefined) return named;
  return settings.provider?.reasoningEffort ?? settings.reasoningEffort ?? settings.effortLevel;
}

/** Where the key comes from: a bearer token wins, then a key, then a key command; the environment before settings. */
function credentialCandidates(env: NodeJS.ProcessEnv, provider: NonNullable<Settings["provider"]>, settingsFile: string): CredentialCandidate[] {
  return [
    { kind: "bearer", value: env.COPILOT_PROVIDER_BEARER_TOKEN, source: "COPILOT_PROVIDER_BEARER_TOKEN" },
    { kind: "apiKey", value: env.OPENAI_API_KEY, source: "OPENAI_API_KEY" },
    { kind: "apiKey", value: env.COPILOT_PROVIDER_API_KEY, source: "COPILOT_PROVIDER_API_KEY" },
    { kind: "command", value: env.COPILOT_PROVIDER_API_KEY_COMMAND, source: "COPILOT_PROVIDER_API_KEY_COMMAND" },
    ...(provider.apiKeyEnv
      ? [{ kind: "apiKey" as const, value: env[provider.apiKeyEnv], source: `${provider.apiKeyEnv} (named by provider.apiKeyEnv in ${settingsFile})` }]
      : []),
    ...fileCandidates(provider, (field) => `provider.${field} in ${settingsFile}`),
  ];
}

export function resolveProviderConfig(input: {
  flags: { model?: string; reasoningEffort?: string };
  env: NodeJS.ProcessEnv;
  settings: Settings;
  settingsFile: string;
}): ProviderConfigResult {
  const { flags, env, settings, settingsFile } = input;
  const provider = settings.provider ?? {};
  const credential = pickCredential(credentialCandidates(env, provider, settingsFile));
  const keyFromSettings = provider.apiKeyEnv ? env[provider.apiKeyEnv] : provider.apiKey;
  const apiKey = firstSet(env.OPENAI_API_KEY, env.COPILOT_PROVIDER_API_KEY, keyFromSettings);
  let baseUrl = firstSet(env.OPENAI_BASE_URL, env.COPILOT_PROVIDER_BASE_URL, provider.baseUrl);
  if (!baseUrl && firstSet(env.OPENAI_API_KEY)) baseUrl = OPENAI_BASE_URL;
  // Anthropic's own API when the type says anthropic and a credential is there, as OPENAI_API_KEY alone means OpenAI's.
  if (!baseUrl && credential && (firstSet(env.COPILOT_PROVIDER_TYPE) ?? provider.type) === "anthropic") baseUrl = ANTHROPIC_BASE_URL;
  const model = firstSet(flags.model, env.AGENT_MODEL, env.COPILOT_MODEL, env.COPILOT_PROVIDER_MODEL_ID, provider.model, settings.model);

  if (!baseUrl) return { ok: false, message: `No model endpoint is configured.\n${howToConfigure(settingsFile)}` };
  if (!model) return { ok: false, message: `No model is configured for ${baseUrl}.\n${howToConfigure(settingsFile)}` };
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)");
  } catch {
    return { ok: false, message: `The endpoint "${baseUrl}" is not an http(s) URL.\n${howToConfigure(settingsFile)}` };
  }
  if (provider.apiKeyEnv && !env[provider.apiKeyEnv] && !credential) {
    return { ok: false, message: `${settingsFile} names apiKeyEnv "${provider.apiKeyEnv}", but that variable is not set.` };
  }
  const promptVariable = firstSet(env.AGENT_MAX_PROMPT_TOKENS) ? "AGENT_MAX_PROMPT_TOKENS" : "COPILOT_PROVIDER_MAX_PROMPT_TOKENS";
  const maxPrompt = positiveInt(env[promptVariable], promptVariable);
  const maxOutput = positiveInt(env.COPILOT_PROVIDER_MAX_OUTPUT_TOKENS, "COPILOT_PROVIDER_MAX_OUTPUT_TOKENS");
  const type = oneOf(firstSet(env.COPILOT_PROVIDER_TYPE), TYPES, "COPILOT_PROVIDER_TYPE");
  const wireApi = oneOf(firstSet(env.COPILOT_PROVIDER_WIRE_API), WIRE_APIS, "COPILOT_PROVIDER_WIRE_API");
  const effort = resolveReasoningEffort(flags.reasoningEffort, settings);
  for (const checked of [maxPrompt, maxOutput, type, wireApi, effort]) if (checked instanceof Error) return { ok: false, message: checked.message };
  // The model a request names on the wire: Copilot's COPILOT_PROVIDER_WIRE_MODEL, when it differs.
  const wireModel = firstSet(env.COPILOT_PROVIDER_WIRE_MODEL);
  return {
    ok: true,
    config: {
      type: (type as ProviderType | undefined) ?? provider.type ?? "openai",
      ...(((wireApi as WireApi | undefined) ?? provider.wireApi) ? { wireApi: (wireApi as WireApi | undefined) ?? provider.wireApi } : {}),
      baseUrl,
      apiKey,
      ...(credential ? { credential } : {}),
      model,
      ...(wireModel && wireModel !== model ? { wireModel } : {}),
      ...(effort ? { reasoningEffort: effort as ReasoningEffort } : {}),
      maxPromptTokens: (maxPrompt as number | undefined) ?? provider.maxPromptTokens ?? DEFAULT_MAX_PROMPT_TOKENS,
      ...(maxPrompt === undefined && provider.maxPromptTokens === undefined ? { maxPromptTokensFrom: "default" as const } : {}),
      maxOutputTokens: (maxOutput as number | undefined) ?? provider.maxOutputTokens,
      headers: { ...provider.headers, ...parseHeaderLines(env.COPILOT_PROVIDER_HEADERS) },
      azureApiVersion: firstSet(env.COPILOT_PROVIDER_AZURE_API_VERSION) ?? provider.azureApiVersion ?? "2024-10-21",
      timeoutMs: provider.timeoutMs ?? 600_000,
      streamIdleTimeoutMs: provider.streamIdleTimeoutMs ?? 180_000,
      ...(provider.responseTimeoutMs ? { responseTimeoutMs: provider.responseTimeoutMs } : {}),
      retry: { ...defaultRetryPolicy, ...provider.retry },
    },
  };
}

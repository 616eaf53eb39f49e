/**
 * Which endpoint a client's session talks to. A session's BYOK `provider` wins over the server's
 * environment and settings; it is resolved by the same rules as the command line (the same checks and
 * defaults), as if its fields were the environment variables of their names.
 */
import { resolveProviderConfig, type ProviderConfig } from "../config/provider-config.js";
import type { Settings } from "../config/settings.js";
import { valueCredential } from "../provider/credentials.js";

/** The SDK's ProviderConfig, as much of it as the agent's wires can use. */
export interface ByokProvider {
  type?: string;
  wireApi?: string;
  baseUrl?: string;
  apiKey?: string;
  bearerToken?: string;
  headers?: Record<string, string>;
  modelId?: string;
  wireModel?: string;
  maxPromptTokens?: number;
  maxOutputTokens?: number;
  /** The client gives the token before each request (its bearerTokenProvider): see session-models.ts. */
  hasBearerTokenProvider?: boolean;
}

export interface ProviderDefaults {
  /** The server's --model, for sessions that name none. */
  model?: string;
  env: NodeJS.ProcessEnv;
  settings: Settings;
  settingsFile: string;
}

/** Variables a BYOK provider replaces wholesale, so nothing of the server's own endpoint leaks into it. */
const ENDPOINT_VARIABLES = [
  "OPENAI_BASE_URL",
  "OPENAI_API_KEY",
  "COPILOT_PROVIDER_BASE_URL",
  "COPILOT_PROVIDER_API_KEY",
  "COPILOT_PROVIDER_TYPE",
  "COPILOT_PROVIDER_WIRE_API",
  "COPILOT_PROVIDER_BEARER_TOKEN",
  "COPILOT_PROVIDER_API_KEY_COMMAND",
  "COPILOT_PROVIDER_WIRE_MODEL",
  "COPILOT_PROVIDER_MODEL_ID",
  "COPILOT_PROVIDER_AZURE_API_VERSION",
  "COPILOT_PROVIDER_HEADERS",
  "COPILOT_PROVIDER_MAX_PROMPT_TOKENS",
  "COPILOT_PROVIDER_MAX_OUTPUT_TOKENS",
];

export type SessionProviderResult = { ok: true; config: ProviderConfig } | { ok: false; message: string };

export function sessionProvider(request: { model?: string; provider?: ByokProvider }, defaults: ProviderDefaults): SessionProviderResult {
  const byok = request.provider;
  // The model names the session's model (for its limits and prompts); wireModel only what goes on the wire.
  const model = request.model ?? byok?.modelId ?? byok?.wireModel ?? defaults.model;
  if (!byok) return resolveProviderConfig({ flags: { model }, env: defaults.env, settings: defaults.settings, settingsFile: defaults.settingsFile });
  if (byok.type !== undefined && byok.type !== "openai" && byok.type !== "azure" && byok.type !== "anthropic") {
    return { ok: false, message: `Provider type "${byok.type}" is not supported: the types are "openai", "azure" and "anthropic".` };
  }
  if (!byok.baseUrl) return { ok: false, message: "The session's provider has no baseUrl." };
  const env: NodeJS.ProcessEnv = { ...defaults.env };
  for (const name of ENDPOINT_VARIABLES) delete env[name];
  Object.assign(env, {
    OPENAI_BASE_URL: byok.baseUrl,
    ...(byok.apiKey ? { OPENAI_API_KEY: byok.apiKey } : {}),
    ...(byok.bearerToken ? { COPILOT_PROVIDER_BEARER_TOKEN: byok.bearerToken } : {}),
    ...(byok.type ? { COPILOT_PROVIDER_TYPE: byok.type } : {}),
    ...(byok.wireApi ? { COPILOT_PROVIDER_WIRE_API: byok.wireApi } : {}),
    ...(byok.wireModel ? { COPILOT_PROVIDER_WIRE_MODEL: byok.wireModel } : {}),
    ...(byok.headers
      ? {
          COPILOT_PROVIDER_HEADERS: Object.entries(byok.headers)
            .map(([name, value]) => `${name}: ${value}`)
            .join("\n"),
        }
      : {}),
    ...(byok.maxPromptTokens ? { COPILOT_PROVIDER_MAX_PROMPT_TOKENS: String(byok.maxPromptTokens) } : {}),
    ...(byok.maxOutputTokens ? { COPILOT_PROVIDER_MAX_OUTPUT_TOKENS: String(byok.maxOutputTokens) } : {}),
  });
  const resolved = resolveProviderConfig({ flags: { model }, env, settings: defaults.settings, settingsFile: defaults.settingsFile });
  if (!resolved.ok) return resolved;
  // A 401 names where the key came from: the client's session configuration, not a variable of the server's.
  const secret = byok.bearerToken ?? byok.apiKey;
  const credential = secret
    ? valueCredential(secret, byok.bearerToken ? "bearer" : "apiKey", `the session's provider.${byok.bearerToken ? "bearerToken" : "apiKey"}`)
    : undefined;
  return { ok: true, config: { ...resolved.config, ...(credential ? { credential } : {}) } };
}

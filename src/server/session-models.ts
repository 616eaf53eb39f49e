/**
 * The models an SDK client's session can use: its singular `provider` (session-provider.ts) or the
 * server's endpoint, plus the session's own registry (`providers` and `models`, selected as `provider/id`,
 * each sent to its provider as its `wireModel`), checked as providers.json is. What the client adds to every
 * request is applied here too: a provider whose bearer token the client gives (`hasBearerTokenProvider`:
 * asked for by `providerToken.getToken` before each request), its `clientName` in the User-Agent, and the
 * client that carries model requests (`fetch`, client-inference.ts), when one is registered.
 */
import { checkProviders, ProvidersFileError, registryModels } from "../config/providers-file.js";
import { DEFAULT_MAX_PROMPT_TOKENS } from "../config/provider-config.js";
import { callbackCredential } from "../provider/credentials.js";
import { ModelRegistry, type RegistryModel } from "../provider/model-registry.js";
import type { ProviderConfig, ProviderFetch } from "../provider/provider-config.js";
import { defaultRetryPolicy } from "../provider/retry.js";
import { sessionProvider, type ProviderDefaults } from "./session-provider.js";
import type { SessionConfig } from "./wire.js";

/** The name Copilot's SDK gives the singular provider when it asks for its token. */
const SINGULAR_PROVIDER = "default";
const ORIGIN = "the session's providers";

/** What the client adds to each of the session's requests. */
export interface SessionTransport {
  /** Carries the requests when a client is the model transport. */
  fetch?: ProviderFetch;
  /** The client's bearerTokenProvider for a provider, asked before each request. */
  token(providerName: string): Promise<string>;
}

export interface SessionModels {
  readonly config: ProviderConfig;
  /** The session's registry now (session.provider.add extends it). */
  readonly registry: ModelRegistry;
  /** The config as a provider is made from it: the client's transport and User-Agent applied. */
  prepare(config: ProviderConfig): ProviderConfig;
  /** session.provider.add: more providers and models (checked with those already there); the new entries. */
  add(providers: readonly unknown[], models: readonly unknown[]): RegistryModel[];
  /** A client's resume of the open session brought another provider or registry: it replaces this one (or why not). */
  reconfigure(config: SessionConfig): string | undefined;
}

function clientToken(transport: SessionTransport, providerName: string) {
  return callbackCredential(() => transport.token(providerName), "bearer", `the client's bearerTokenProvider for provider "${providerName}"`);
}

type Lists = { providers: readonly unknown[]; models: readonly unknown[] };

function registryOf(lists: Lists, base: ProviderConfig | undefined, transport: SessionTransport): RegistryModel[] {
  if (lists.providers.length === 0 && lists.models.length === 0) return [];
  const checked = checkProviders(lists, ORIGIN);
  const entries = registryModels(checked, ORIGIN, {
    maxPromptTokens: DEFAULT_MAX_PROMPT_TOKENS,
    timeoutMs: base?.timeoutMs ?? 600_000,
    streamIdleTimeoutMs: base?.streamIdleTimeoutMs ?? 180_000,
    ...(base?.responseTimeoutMs ? { responseTimeoutMs: base.responseTimeoutMs } : {}),
    retry: base?.retry ?? defaultRetryPolicy,
  });
  const tokenFromClient = new Set(checked.providers.filter((provider) => provider.hasBearerTokenProvider === true).map((provider) => provider.name));
  return entries.map((entry) => {
    const name = entry.config.providerName;
    return name && tokenFromClient.has(name) ? { ...entry, config: { ...entry.config, credential: clientToken(transport, name) } } : entry;
  });
}

export type SessionModelsResult = { ok: true; value: SessionModels } | { ok: false; message: string };

/** One configuration's models: what `sessionModels` holds until a resume brings another. */
interface ModelsState {
  base: ProviderConfig | undefined;
  singular: ProviderConfig | undefined;
  lists: Lists;
  registry: ModelRegistry;
  chosen: ProviderConfig;
  userAgent: string | undefined;
  /** The client's enableCitations: documents are sent citable where the wire allows. */
  citations: boolean;
}

function resolveState(
  config: SessionConfig,
  defaults: ProviderDefaults,
  transport: SessionTransport,
): { ok: true; state: ModelsState } | { ok: false; message: string } {
  const resolved = sessionProvider({ model: config.model, provider: config.provider }, defaults);
  const base = resolved.ok ? resolved.config : undefined;
  const lists: Lists = { providers: config.providers ?? [], models: config.models ?? [] };
  let entries: RegistryModel[];
  try {
    entries = registryOf(lists, base, transport);
  } catch (error) {
    if (error instanceof ProvidersFileError) return { ok: false, message: error.message };
    throw error;
  }
  const singular = base && config.provider?.hasBearerTokenProvider === true ? { ...base, credential: clientToken(transport, SINGULAR_PROVIDER) } : base;
  const registry = new ModelRegistry(singular, entries, ORIGIN);
  const chosen = (config.model ? registry.find(config.model)?.config : undefined) ?? singular;
  if (!chosen) return resolved.ok ? { ok: false, message: `Unknown model "${config.model}".` } : resolved;
  const userAgent = config.clientName ? `agent (client: ${config.clientName})` : undefined;
  return { ok: true, state: { base, singular, lists, registry, chosen, userAgent, citations: config.enableCitations === true } };
}

export function sessionModels(config: SessionConfig, defaults: ProviderDefaults, transport: SessionTransport): SessionModelsResult {
  const first = resolveState(config, defaults, transport);
  if (!first.ok) return first;
  let state = first.state;
  return {
    ok: true,
    value: {
      get config() {
        return state.chosen;
      },
      get registry() {
        return state.registry;
      },
      prepare: (provider) => ({
        ...provider,
        ...(state.userAgent ? { headers: { "User-Agent": state.userAgent, ...provider.headers } } : {}),
        ...(transport.fetch ? { fetch: transport.fetch } : {}),
        ...(state.citations ? { citations: true } : {}),
      }),
      add: (providers, models) => {
        const lists = { providers: [...state.lists.providers, ...providers], models: [...state.lists.models, ...models] };
        // Throws ProvidersFileError (a clear message for the client) and leaves the registry as it was.
        const all = registryOf(lists, state.base, transport);
        const known = new Set(state.registry.models.map((model) => model.id));
        state = { ...state, lists, registry: new ModelRegistry(state.singular, all, ORIGIN) };
        return all.filter((model) => !known.has(model.id));
      },
      reconfigure: (next) => {
        const resolved = resolveState(next, defaults, transport);
        if (!resolved.ok) return resolved.message;
        state = resolved.state;
        return undefined;
      },
    },
  };
}

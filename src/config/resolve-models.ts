/**
 * The one place a session's models are worked out: the endpoint of the environment and settings
 * (provider-config.ts), the models of providers.json (COPILOT_PROVIDERS_CONFIG, else
 * $AGENT_HOME/providers.json), and which of them the session starts with (--model, AGENT_MODEL,
 * COPILOT_MODEL, settings). A providers.json model is selected as `provider/id` (or its bare id when only
 * one provider has it); any other name goes to the configured endpoint, if there is one.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { ModelRegistry, type RegistryModel } from "../provider/model-registry.js";
import type { ProviderConfig } from "../provider/provider-config.js";
import { defaultRetryPolicy } from "../provider/retry.js";
import { DEFAULT_MAX_PROMPT_TOKENS, resolveProviderConfig, resolveReasoningEffort } from "./provider-config.js";
import type { Settings } from "./settings.js";

export interface ResolvedModels {
  registry: ModelRegistry;
  /** The model the session starts with. */
  config: ProviderConfig;
}

export type ResolveModelsResult = { ok: true; value: ResolvedModels } | { ok: false; message: string };

export interface ResolveModelsInput {
  flags: { model?: string; reasoningEffort?: string };
  env: NodeJS.ProcessEnv;
  settings: Settings;
  settingsFile: string;
  agentHome: string;
}

/** Where providers.json is, and whether it must exist (a file named by COPILOT_PROVIDERS_CONFIG must). */
export function providersFilePath(env: NodeJS.ProcessEnv, agentHome: string): { file: string; required: boolean } {
  const named = env.COPILOT_PROVIDERS_CONFIG?.trim();
  return named ? { file: path.resolve(named), required: true } : { file: path.join(agentHome, "providers.json"), required: false };
}

async function fileModels(input: ResolveModelsInput, endpoint: ProviderConfig | undefined): Promise<{ models: RegistryModel[]; file: string } | string> {
  const { file, required } = providersFilePath(input.env, input.agentHome);
  if (!existsSync(file)) return required ? `COPILOT_PROVIDERS_CONFIG names ${file}, which does not exist.` : { models: [], file };
  const { readProvidersFile, registryModels, ProvidersFileError } = await import("./providers-file.js");
  const provider = input.settings.provider ?? {};
  const effort = resolveReasoningEffort(input.flags.reasoningEffort, input.settings);
  if (effort instanceof Error) return effort.message;
  try {
    const models = registryModels(readProvidersFile(file), file, {
      maxPromptTokens: DEFAULT_MAX_PROMPT_TOKENS,
      timeoutMs: endpoint?.timeoutMs ?? provider.timeoutMs ?? 600_000,
      streamIdleTimeoutMs: endpoint?.streamIdleTimeoutMs ?? provider.streamIdleTimeoutMs ?? 180_000,
      responseTimeoutMs: endpoint?.responseTimeoutMs ?? provider.responseTimeoutMs,
      retry: endpoint?.retry ?? { ...defaultRetryPolicy, ...provider.retry },
      ...(effort ? { reasoningEffort: effort } : {}),
    });
    return { models, file };
  } catch (error) {
    if (error instanceof ProvidersFileError) return error.message;
    throw error;
  }
}

export async function resolveModels(input: ResolveModelsInput): Promise<ResolveModelsResult> {
  const { flags, env, settings } = input;
  const endpoint = resolveProviderConfig(input);
  const loaded = await fileModels(input, endpoint.ok ? endpoint.config : undefined);
  if (typeof loaded === "string") return { ok: false, message: loaded };
  if (loaded.models.length === 0) {
    return endpoint.ok ? { ok: true, value: { registry: new ModelRegistry(endpoint.config), config: endpoint.config } } : endpoint;
  }
  const registry = new ModelRegistry(endpoint.ok ? endpoint.config : undefined, loaded.models, loaded.file);
  const wanted = [flags.model, env.AGENT_MODEL, env.COPILOT_MODEL, settings.provider?.model, settings.model].map((name) => name?.trim()).find((name) => !!name);
  const entry = wanted ? registry.find(wanted) : undefined;
  if (entry) return { ok: true, value: { registry, config: entry.config } };
  if (endpoint.ok) return { ok: true, value: { registry, config: endpoint.config } };
  const offered = registry.models.map((model) => model.id).join(", ");
  if (!wanted) {
    return {
      ok: false,
      message: `No model is selected. ${loaded.file} offers: ${offered}.\nChoose one with --model <provider>/<id> (or COPILOT_MODEL, or "model" in settings.json).`,
    };
  }
  return { ok: false, message: `Unknown model "${wanted}": ${loaded.file} offers ${offered}, and no other endpoint is configured.` };
}

/**
 * providers.json in Copilot CLI's format: named providers (type, wireApi, baseUrl, apiKey / bearerToken /
 * apiKeyCommand, azure.apiVersion, headers) and the models they serve (id, provider, wireModel, modelId,
 * name, token limits, capabilities), selected as `provider/id`. The same shape comes from an SDK client's
 * session (its `providers` and `models`), so both are read by `registryModels`. Unknown keys are ignored, as
 * Copilot adds them; a file that is not valid JSON, a wrong type, or a model naming no provider is a clear
 * error naming the file and the entry.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { onFirstUse } from "../provider/plain-fields.js";
import type { RegistryModel } from "../provider/model-registry.js";
import type { ProviderConfig } from "../provider/provider-config.js";
import { fileCandidates, pickCredential } from "./credential-sources.js";

/**
 * Built at the first check: an SDK server loads this module for its error class with every session's models, and
 * most sessions bring no registry to check (docs/benchmarks.md).
 */
const providersFileSchema = onFirstUse(() => {
  const providerSchema = z.looseObject({
    name: z
      .string()
      .min(1)
      .refine((name) => !name.includes("/"), "a provider name cannot contain /"),
    type: z.enum(["openai", "azure", "anthropic"]).optional(),
    wireApi: z.enum(["completions", "responses"]).optional(),
    transport: z.string().optional(),
    baseUrl: z.url({ protocol: /^https?$/ }),
    apiKey: z.string().optional(),
    bearerToken: z.string().optional(),
    apiKeyCommand: z.string().optional(),
    azure: z.looseObject({ apiVersion: z.string().optional() }).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    modelProvider: z.string().optional(),
  });

  const positive = z.number().int().positive().optional();

  const modelSchema = z.looseObject({
    id: z.string().min(1),
    provider: z.string().min(1),
    wireModel: z.string().optional(),
    modelId: z.string().optional(),
    name: z.string().optional(),
    maxPromptTokens: positive,
    maxContextWindowTokens: positive,
    maxOutputTokens: positive,
    capabilities: z.unknown().optional(),
    systemMessage: z.unknown().optional(),
  });

  return z.looseObject({
    providers: z.array(providerSchema).default([]),
    models: z.array(modelSchema).default([]),
  });
});
export type ProvidersFile = z.infer<ReturnType<typeof providersFileSchema>>;

export class ProvidersFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProvidersFileError";
  }
}

/** The file's providers and models, checked. Throws ProvidersFileError with a readable message. */
export function readProvidersFile(file: string): ProvidersFile {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ProvidersFileError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ProvidersFileError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  return checkProviders(raw, file);
}

/** A `{providers, models}` value (a file's, a client's) checked: the shape, and every model's provider exists. */
export function checkProviders(raw: unknown, where: string): ProvidersFile {
  const parsed = providersFileSchema().safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".") || "(root)"}: ${issue.message}`);
    throw new ProvidersFileError(`${where} has invalid providers:\n${problems.join("\n")}`);
  }
  const names = parsed.data.providers.map((provider) => provider.name);
  const problems: string[] = [];
  names.forEach((name, index) => {
    if (names.indexOf(name) !== index) problems.push(`  providers[${index}]: the name "${name}" is used twice`);
  });
  parsed.data.models.forEach((model, index) => {
    if (!names.includes(model.provider))
      problems.push(`  models[${index}].provider: "${model.provider}" names no provider (providers: ${names.join(", ") || "none"})`);
  });
  if (problems.length > 0) throw new ProvidersFileError(`${where} has invalid providers:\n${problems.join("\n")}`);
  return parsed.data;
}

/** What every model shares unless its entry says otherwise: timeouts, retries, the default prompt limit. */
export type ModelDefaults = Pick<ProviderConfig, "maxPromptTokens" | "timeoutMs" | "streamIdleTimeoutMs" | "responseTimeoutMs" | "retry" | "reasoningEffort">;

/** The registry's entries for checked providers and models; `where` names their origin in messages. */
export function registryModels(file: ProvidersFile, where: string, defaults: ModelDefaults): RegistryModel[] {
  const providers = new Map(file.providers.map((provider) => [provider.name, provider]));
  // One credential per provider: a key command runs once for all its models.
  const credentials = new Map(
    file.providers.map((provider) => [
      provider.name,
      pickCredential(fileCandidates(provider, (field) => `${field} of provider "${provider.name}" in ${where}`)),
    ]),
  );
  return file.models.flatMap((model): RegistryModel[] => {
    const provider = providers.get(model.provider);
    if (!provider) return [];
    const credential = credentials.get(provider.name);
    const id = `${provider.name}/${model.id}`;
    const windowed = model.maxContextWindowTokens ? model.maxContextWindowTokens - (model.maxOutputTokens ?? 0) : undefined;
    const maxPromptTokens = model.maxPromptTokens ?? windowed;
    return [
      {
        id,
        name: model.name ?? model.id,
        config: {
          type: provider.type ?? "openai",
          ...(provider.wireApi ? { wireApi: provider.wireApi } : {}),
          baseUrl: provider.baseUrl,
          ...(credential ? { credential } : {}),
          model: id,
          wireModel: model.wireModel ?? model.id,
          providerName: provider.name,
          ...(defaults.reasoningEffort ? { reasoningEffort: defaults.reasoningEffort } : {}),
          maxPromptTokens: maxPromptTokens ?? defaults.maxPromptTokens,
          ...(maxPromptTokens === undefined ? { maxPromptTokensFrom: "default" as const } : {}),
          ...(model.maxOutputTokens ? { maxOutputTokens: model.maxOutputTokens } : {}),
          headers: provider.headers ?? {},
          azureApiVersion: provider.azure?.apiVersion ?? "2024-10-21",
          timeoutMs: defaults.timeoutMs,
          streamIdleTimeoutMs: defaults.streamIdleTimeoutMs,
          ...(defaults.responseTimeoutMs ? { responseTimeoutMs: defaults.responseTimeoutMs } : {}),
          retry: defaults.retry,
        },
      },
    ];
  });
}

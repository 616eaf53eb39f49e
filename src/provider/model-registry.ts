/**
 * Every model a session can use, by the name it is selected with: the models of providers.json (and of a
 * client's session, which brings its own) as `provider/id`, each with its provider's endpoint, wire and
 * credential; and, when one is configured, the plain endpoint of the environment or settings, which serves
 * any other name. /model, an agent file's `model:`, the task tool's `model` and `--model` all resolve here.
 * Pure: src/config builds the entries (providers-file.ts, resolve-models.ts).
 */
import { ProviderError } from "./provider-error.js";
import type { ProviderConfig } from "./provider-config.js";

export interface RegistryModel {
  /** The selection id: `provider/id`. */
  id: string;
  /** What the picker shows (providers.json's `name`). */
  name: string;
  /** Everything needed to reach it; `config.model` is the selection id. */
  config: ProviderConfig;
}

export class ModelRegistry {
  private readonly entries = new Map<string, RegistryModel>();

  /** `fallback`: the endpoint that serves a name no entry has (the environment's or settings'), if any. */
  constructor(
    readonly fallback?: ProviderConfig,
    models: readonly RegistryModel[] = [],
    /** Where the entries came from, for messages ("/home/me/.agent/providers.json"). */
    readonly origin = "providers.json",
  ) {
    for (const model of models) this.entries.set(model.id, model);
  }

  /** A registry with more models (a client's session's own providers), this one unchanged. */
  extend(models: readonly RegistryModel[], origin = this.origin): ModelRegistry {
    return new ModelRegistry(this.fallback, [...this.entries.values(), ...models], origin);
  }

  get models(): RegistryModel[] {
    return [...this.entries.values()];
  }

  /** The entry a name selects: its selection id, or its bare id when only one provider has it. */
  find(name: string): RegistryModel | undefined {
    const exact = this.entries.get(name);
    if (exact) return exact;
    const bare = this.models.filter((model) => model.id.slice(model.id.indexOf("/") + 1) === name);
    return bare.length === 1 ? bare[0] : undefined;
  }

  /** The configuration for a model name: an entry's, else the fallback endpoint's with that model, else undefined. */
  resolve(name: string): ProviderConfig | undefined {
    const entry = this.find(name);
    if (entry) return entry.config;
    if (!this.fallback) return undefined;
    // The fallback's own model keeps the name it goes by on the wire; another name is sent as it is.
    return { ...this.fallback, model: name, wireModel: name === this.fallback.model ? this.fallback.wireModel : undefined };
  }

  /** The error for a name nothing serves. */
  unknown(name: string): ProviderError {
    const offered = this.models.map((model) => model.id).join(", ");
    return new ProviderError(
      "model_not_found",
      `The model "${name}" is not configured: ${this.origin} offers ${offered || "no models"}, and no other endpoint is configured (OPENAI_BASE_URL or COPILOT_PROVIDER_BASE_URL).`,
    );
  }

  /** The names to offer: the entries', then what the fallback endpoint lists (when it can). */
  async listModels(listFallback: (() => Promise<string[]>) | undefined): Promise<string[]> {
    const own = this.models.map((model) => model.id);
    if (!this.fallback || !listFallback) return own.length > 0 ? own : this.fallback ? [this.fallback.model] : [];
    try {
      const listed = await listFallback();
      return [...own, ...listed.filter((id) => !own.includes(id))];
    } catch (error) {
      if (own.length === 0) throw error;
      return [...own, this.fallback.model];
    }
  }
}

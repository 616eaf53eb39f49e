/**
 * The session's model and provider methods beyond switching (session-methods.ts): the models it can use
 * (its registry and what its endpoint lists), a registry that grows at run time (session.provider.add), the
 * reasoning effort on its own, and the endpoint with its credential for a client that calls the model
 * itself (session.provider.getEndpoint: only when the server's environment allows it, as Copilot's does).
 */
import { z } from "zod";
import { onFirstUse } from "../../provider/plain-fields.js";
import { ProvidersFileError } from "../../config/providers-file.js";
import type { ProviderConfig } from "../../provider/provider-config.js";
import type { ClientLink, ServedSession } from "../served-session.js";
import { sessionIdOf } from "../wire.js";

import { PROVIDER_METHODS } from "./provider-method-names.js";

type Method = (typeof PROVIDER_METHODS)[number];

/** Built when one of these methods is first called: none is part of an SDK application's first exchange. */
const schemas = onFirstUse(() => ({
  effort: z.looseObject({ sessionId: z.string(), reasoningEffort: z.string() }),
  add: z.looseObject({ sessionId: z.string(), providers: z.array(z.unknown()).optional(), models: z.array(z.unknown()).optional() }),
}));

/** A model as the SDK's lists show it. */
export function modelInfo(id: string, name: string, maxPromptTokens: number) {
  return {
    id,
    name,
    capabilities: {
      supports: { vision: false, reasoningEffort: false },
      limits: { max_context_window_tokens: maxPromptTokens, max_prompt_tokens: maxPromptTokens },
    },
  };
}

/** The endpoint as a client would call it: where, with which credential, and the headers every request carries. */
async function endpointOf(config: ProviderConfig) {
  const key = config.credential ? await config.credential.get() : config.apiKey;
  const bearer = config.credential?.kind === "bearer";
  const auth: Record<string, string> = !key
    ? {}
    : bearer || config.type === "openai"
      ? { Authorization: `Bearer ${key}` }
      : config.type === "azure"
        ? { "api-key": key }
        : { "x-api-key": key };
  return {
    type: config.type,
    ...(config.type === "anthropic" ? {} : { wireApi: config.wireApi ?? "completions" }),
    baseUrl: config.baseUrl,
    ...(key ? { apiKey: key } : {}),
    headers: { ...config.headers, ...auth },
  };
}

export function providerMethods(
  owned: (link: ClientLink, sessionId: string) => ServedSession,
  env: NodeJS.ProcessEnv,
): Record<Method, (link: ClientLink, params: unknown) => unknown> {
  const open = (link: ClientLink, sessionId: string) => {
    const served = owned(link, sessionId);
    const { session, models } = served;
    if (!session || !models) throw new Error(`Session not found for sessionId: ${sessionId}`);
    return { served, session, models };
  };
  return {
    "session.model.list": async (link, params) => {
      const { session, models } = open(link, sessionIdOf(params));
      const own = models.registry.models.map((model) => modelInfo(model.id, model.name, model.config.maxPromptTokens));
      const listed = await session.listModels().catch(() => [session.state.model]);
      const limit = models.config.maxPromptTokens;
      const rest = listed.filter((id) => !own.some((model) => model.id === id)).map((id) => modelInfo(id, id, limit));
      return { list: [...own, ...rest] };
    },
    "session.model.setReasoningEffort": (link, params) => {
      const { sessionId, reasoningEffort } = schemas().effort.parse(params);
      const { served, session } = open(link, sessionId);
      session.dispatch({ type: "set_model", model: session.state.model, reasoningEffort });
      return { reasoningEffort: served.reasoningEffort ?? reasoningEffort };
    },
    "session.provider.add": (link, params) => {
      const { sessionId, providers, models: added } = schemas().add.parse(params);
      const { models } = open(link, sessionId);
      try {
        return { models: models.add(providers ?? [], added ?? []).map((model) => modelInfo(model.id, model.name, model.config.maxPromptTokens)) };
      } catch (error) {
        if (error instanceof ProvidersFileError) throw new Error(error.message);
        throw error;
      }
    },
    "session.provider.getEndpoint": (link, params) => {
      const { session, models } = open(link, sessionIdOf(params));
      if (env.COPILOT_ALLOW_GET_PROVIDER_ENDPOINT !== "true") {
        throw new Error("session.provider.getEndpoint is turned off: start the server with COPILOT_ALLOW_GET_PROVIDER_ENDPOINT=true to allow it.");
      }
      return endpointOf(models.registry.resolve(session.state.model) ?? models.config);
    },
  };
}

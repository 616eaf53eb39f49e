/**
 * /model's switch: another model (any the registry resolves, providers.json's included) and optionally
 * another reasoning effort, recorded as session.model_change with both, before and after.
 */
import type { EventData } from "../protocol/events/index.js";
import { REASONING_EFFORTS, type ReasoningEffort } from "../provider/provider-config.js";
import type { ProviderOptions } from "../provider/session-providers.js";
import type { ChatProvider } from "../provider/types.js";

export interface CurrentModel {
  provider: ChatProvider;
  /** The effort /model chose; undefined: the configured one. */
  reasoningEffort: ReasoningEffort | undefined;
}

function checkedEffort(effort: string): ReasoningEffort {
  if (!(REASONING_EFFORTS as readonly string[]).includes(effort)) {
    throw new Error(`Unknown reasoning effort "${effort}": the efforts are ${REASONING_EFFORTS.join(", ")}.`);
  }
  return effort as ReasoningEffort;
}

/** The model after the switch, or undefined when nothing changes. Throws when the session cannot switch. */
export function switchModel(
  current: CurrentModel,
  model: string,
  effort: string | undefined,
  createProvider: ((model: string, options?: ProviderOptions) => ChatProvider) | undefined,
  emit: (type: "session.model_change", data: EventData<"session.model_change">) => unknown,
  reconnect = false,
): CurrentModel | undefined {
  const reasoningEffort = effort === undefined ? current.reasoningEffort : checkedEffort(effort);
  if (!reconnect && model === current.provider.model && reasoningEffort === current.reasoningEffort) return undefined;
  if (!createProvider) throw new Error("This session cannot change its model.");
  const provider = createProvider(model, reasoningEffort ? { reasoningEffort } : {});
  emit("session.model_change", {
    previousModel: current.provider.model,
    newModel: model,
    ...(current.reasoningEffort ? { previousReasoningEffort: current.reasoningEffort } : {}),
    ...(reasoningEffort ? { reasoningEffort } : {}),
    source: "model_command",
  });
  return { provider, reasoningEffort };
}

/**
 * The model as an ACP session config option (a select in the editor's model picker). The endpoint's model
 * list can be slow or missing, so a session starts with its current model alone and the list follows as a
 * `config_option_update` when it arrives.
 */
import type { SessionConfigOption } from "@agentclientprotocol/sdk";

export const MODEL_OPTION_ID = "model";

/** How long the endpoint may take to list its models before the picker shows only the current one. */
const LIST_TIMEOUT_MS = 10_000;

export function modelOption(current: string, models: readonly string[] = []): SessionConfigOption {
  const all = models.includes(current) ? models : [current, ...models];
  return {
    id: MODEL_OPTION_ID,
    name: "Model",
    category: "model",
    type: "select",
    currentValue: current,
    options: all.map((model) => ({ value: model, name: model })),
  };
}

export async function listModels(session: { listModels(signal?: AbortSignal): Promise<string[]> }): Promise<string[]> {
  try {
    return await session.listModels(AbortSignal.timeout(LIST_TIMEOUT_MS));
  } catch {
    return [];
  }
}

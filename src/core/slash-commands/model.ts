import { REASONING_EFFORTS } from "../../provider/provider-config.js";
import type { SlashCommand } from "./types.js";

const LIST_TIMEOUT_MS = 10_000;

/**
 * `/model` opens the picker (without a screen, it names the model and those the registry or the endpoint
 * offers); `/model <name> [effort]` switches directly, but only to a model the registry or the endpoint lists
 * (providers.json's as `provider/id`), optionally with a reasoning effort. When the endpoint cannot list its
 * models the name is accepted unchecked, and the answer says so.
 */
export const modelCommand: SlashCommand = {
  name: "model",
  description: "Show or change the model (and its reasoning effort)",
  argsHint: "[model] [none|minimal|low|medium|high|xhigh]",
  run: async ({ session, args: line }) => {
    if (line === "" && session.interactive) return { kind: "dialog", dialog: "model" };
    const [args = "", effort, ...extra] = line.split(/\s+/);
    if (extra.length > 0 || (effort !== undefined && !(REASONING_EFFORTS as readonly string[]).includes(effort))) {
      return { kind: "message", level: "error", text: `Usage: /model <model> [${REASONING_EFFORTS.join("|")}]` };
    }
    let models: string[] | undefined;
    try {
      models = await session.listModels(AbortSignal.timeout(LIST_TIMEOUT_MS));
    } catch {
      models = undefined;
    }
    if (args === "") {
      const offered = models && models.length > 0 ? `The endpoint offers: ${models.join(", ")}.` : "The endpoint could not list its models.";
      return { kind: "message", text: `Model: ${session.model}. ${offered} /model <name> switches.` };
    }
    if (models && models.length > 0 && !models.includes(args)) {
      const shown = models.slice(0, 8).join(", ") + (models.length > 8 ? `, … (${models.length} in all)` : "");
      return { kind: "message", level: "error", text: `Unknown model "${args}". The endpoint offers: ${shown}. Type /model to pick one.` };
    }
    session.dispatch({ type: "set_model", model: args, ...(effort ? { reasoningEffort: effort } : {}) });
    const set = `Model set to ${args}${effort ? ` (reasoning effort ${effort})` : ""}`;
    if (models && models.length > 0) return { kind: "message", text: `${set}.` };
    return { kind: "message", level: "warning", text: `${set} (the endpoint could not list its models, so the name was not checked).` };
  },
};

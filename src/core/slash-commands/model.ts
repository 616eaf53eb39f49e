import type { SlashCommand } from "./types.js";

const LIST_TIMEOUT_MS = 10_000;

/**
 * `/model` opens the picker (without a screen, it names the model and those the endpoint offers);
 * `/model <name>` switches directly, but only to a model the endpoint lists. When the endpoint cannot list
 * its models the name is accepted unchecked, and the answer says so.
 */
export const modelCommand: SlashCommand = {
  name: "model",
  description: "Show or change the model",
  argsHint: "[model]",
  run: async ({ session, args }) => {
    if (args === "" && session.interactive) return { kind: "dialog", dialog: "model" };
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
    session.dispatch({ type: "set_model", model: args });
    if (models && models.length > 0) return { kind: "message", text: `Model set to ${args}.` };
    return { kind: "message", level: "warning", text: `Model set to ${args} (the endpoint could not list its models, so the name was not checked).` };
  },
};

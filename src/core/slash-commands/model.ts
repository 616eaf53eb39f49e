import type { SlashCommand } from "./types.js";

export const modelCommand: SlashCommand = {
  name: "model",
  description: "Show or change the model",
  argsHint: "[model]",
  run: ({ session, args }) => {
    if (args === "") return { kind: "dialog", dialog: "model" };
    session.dispatch({ type: "set_model", model: args });
    return { kind: "message", text: `Model set to ${args}.` };
  },
};

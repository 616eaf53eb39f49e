import type { SlashCommand } from "./types.js";

export const planCommand: SlashCommand = {
  name: "plan",
  description: "Switch to plan mode (no file changes), optionally with a request",
  argsHint: "[request]",
  run: ({ session, args }) => {
    session.dispatch({ type: "set_mode", mode: "plan" });
    return args === "" ? { kind: "message", text: "Plan mode: the agent studies and plans without changing files." } : { kind: "prompt", prompt: args };
  },
};

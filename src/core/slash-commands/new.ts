import type { SlashCommand } from "./types.js";

export const newCommand: SlashCommand = {
  name: "new",
  description: "Start a new conversation in this directory (this one stays resumable)",
  run: () => ({ kind: "new-session" }),
};

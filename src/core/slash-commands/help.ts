import type { SlashCommand } from "./types.js";

export const helpCommand: SlashCommand = {
  name: "help",
  description: "Show keys, commands and the instruction files in use",
  run: () => ({ kind: "dialog", dialog: "help" }),
};

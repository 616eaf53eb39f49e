import type { SlashCommand } from "./types.js";

export const clearCommand: SlashCommand = {
  name: "clear",
  aliases: ["new", "reset"],
  description: "Start a new conversation (this one stays resumable)",
  run: () => ({ kind: "new-session" }),
};

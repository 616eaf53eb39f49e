import type { SlashCommand } from "./types.js";

export const clearCommand: SlashCommand = {
  name: "clear",
  aliases: ["reset"],
  description: "Clear the conversation and start afresh (this one stays resumable)",
  run: () => ({ kind: "new-session" }),
};

import type { SlashCommand } from "./types.js";

export const resumeCommand: SlashCommand = {
  name: "resume",
  aliases: ["continue"],
  description: "Switch to another session",
  run: () => ({ kind: "dialog", dialog: "resume" }),
};

import type { SlashCommand } from "./types.js";

/**
 * `/help` opens the help dialog; without a screen (`agent -p /help`, a client without the dialog) the same
 * commands and instruction files come back as text, like `/agent` and `/tasks` do.
 */
export const helpCommand: SlashCommand = {
  name: "help",
  description: "Show keys, commands and the instruction files in use",
  run: async ({ session }) => {
    if (session.interactive) return { kind: "dialog", dialog: "help" };
    // The registry imports this file: loaded when asked, not at import time.
    const { slashCommands } = await import("./registry.js");
    const label = (command: SlashCommand) => `/${command.name}${command.argsHint ? ` ${command.argsHint}` : ""}`;
    const sorted = [...slashCommands].sort((a, b) => a.name.localeCompare(b.name));
    const width = Math.max(...sorted.map((command) => label(command).length)) + 2;
    const lines = sorted.map((command) => {
      const aliases = command.aliases && command.aliases.length > 0 ? ` (also ${command.aliases.map((alias) => `/${alias}`).join(", ")})` : "";
      return `  ${label(command).padEnd(width)}${command.description}${aliases}`;
    });
    const files = session.instructionPaths;
    return {
      kind: "message",
      text: ["Commands:", ...lines, "", "Instruction files:", ...(files.length > 0 ? files.map((file) => `  ${file}`) : ["  none loaded"])].join("\n"),
    };
  },
};

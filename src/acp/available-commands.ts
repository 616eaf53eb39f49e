/**
 * The slash commands an editor can offer in its prompt box (`available_commands_update`). A prompt is read as
 * a typed line, so they work as in the TUI; the ones that only open the TUI's dialogs or manage its sessions
 * are left out (the editor has its own ways to pick a session or leave).
 */
import type { AvailableCommand } from "@agentclientprotocol/sdk";
import { loadSlashCommands } from "../core/index.js";

const TERMINAL_ONLY = new Set(["clear", "exit", "help", "resume"]);

export async function availableCommands(): Promise<AvailableCommand[]> {
  const { slashCommands } = await loadSlashCommands();
  return slashCommands
    .filter((command) => !TERMINAL_ONLY.has(command.name))
    .map((command) => ({ name: command.name, description: command.description, ...(command.argsHint ? { input: { hint: command.argsHint } } : {}) }));
}

/**
 * The slash commands an editor can offer in its prompt box (`available_commands_update`). A prompt is read as
 * a typed line, so they work as in the TUI; the ones that only open the TUI's dialogs or manage its sessions
 * are left out (the editor has its own ways to pick a session or leave). The session's skills that a person
 * may invoke follow, as `/<skill> arguments` (a skill with a command's name is left out: the command wins).
 */
import type { AvailableCommand } from "@agentclientprotocol/sdk";
import { loadSlashCommands } from "../core/index.js";

const TERMINAL_ONLY = new Set(["clear", "exit", "help", "resume"]);

type Command = { name: string; description: string; argsHint?: string };
type Listed = { name: string; description: string; enabled: boolean; userInvocable: boolean; argumentHint?: string };

export async function availableCommands(listed: readonly Listed[] = []): Promise<AvailableCommand[]> {
  const skills = listed
    .filter((skill) => skill.enabled && skill.userInvocable)
    .map((skill) => ({ name: skill.name, description: skill.description, ...(skill.argumentHint ? { argsHint: skill.argumentHint } : {}) }));
  const { slashCommands } = await loadSlashCommands();
  const taken = new Set(slashCommands.flatMap((command) => [command.name, ...(command.aliases ?? [])]));
  const asAvailable = (command: Command): AvailableCommand => ({
    name: command.name,
    description: command.description,
    ...(command.argsHint ? { input: { hint: command.argsHint } } : {}),
  });
  return [
    ...slashCommands.filter((command) => !TERMINAL_ONLY.has(command.name)).map(asAvailable),
    ...skills.filter((skill) => !taken.has(skill.name)).map(asAvailable),
  ];
}

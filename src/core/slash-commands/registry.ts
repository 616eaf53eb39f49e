/** Every slash command, and how a typed line finds one. */
import { allowAllCommand } from "./allow-all.js";
import { autopilotCommand } from "./autopilot.js";
import { clearCommand } from "./clear.js";
import { exitCommand } from "./exit.js";
import { helpCommand } from "./help.js";
import { modelCommand } from "./model.js";
import { planCommand } from "./plan.js";
import { resetAllowedToolsCommand } from "./reset-allowed-tools.js";
import { resumeCommand } from "./resume.js";
import type { SlashCommand } from "./types.js";

export type { SlashCommand, SlashCommandContext, SlashCommandResult } from "./types.js";

export const slashCommands: readonly SlashCommand[] = [
  allowAllCommand,
  autopilotCommand,
  clearCommand,
  exitCommand,
  helpCommand,
  modelCommand,
  planCommand,
  resetAllowedToolsCommand,
  resumeCommand,
];

export function findSlashCommand(name: string): SlashCommand | undefined {
  const wanted = name.toLowerCase();
  return slashCommands.find((command) => command.name === wanted || command.aliases?.includes(wanted));
}

/** "/model gpt-4.1" → the command and its arguments; undefined when the line is not a slash command. */
export function parseSlashCommand(line: string): { name: string; args: string; command?: SlashCommand } | undefined {
  const match = /^\/([A-Za-z][\w-]*)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!match) return undefined;
  const name = match[1] as string;
  return { name, args: (match[2] ?? "").trim(), command: findSlashCommand(name) };
}

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

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] as number;
      row[j] = Math.min(above + 1, (row[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] as number;
}

/** The command a mistyped name most likely meant, when one is close enough to suggest. */
export function closestCommand(name: string): string | undefined {
  const wanted = name.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const command of slashCommands) {
    for (const candidate of [command.name, ...(command.aliases ?? [])]) {
      const distance = candidate.startsWith(wanted) ? 0 : editDistance(wanted, candidate);
      if (!best || distance < best.distance) best = { name: command.name, distance };
    }
  }
  return best && best.distance <= Math.max(1, Math.floor(wanted.length / 3)) ? best.name : undefined;
}

/** Every slash command, and how a typed line finds one. */
import { addDirCommand } from "./add-dir.js";
import { agentCommand } from "./agent.js";
import { allowAllCommand } from "./allow-all.js";
import { autopilotCommand } from "./autopilot.js";
import { clearCommand } from "./clear.js";
import { compactCommand } from "./compact.js";
import { contextCommand } from "./context.js";
import { copyCommand } from "./copy.js";
import { cwdCommand } from "./cwd.js";
import { diffCommand } from "./diff.js";
import { envCommand } from "./env.js";
import { exitCommand } from "./exit.js";
import { forkCommand } from "./fork.js";
import { fleetCommand } from "./fleet.js";
import { helpCommand } from "./help.js";
import { hooksCommand } from "./hooks.js";
import { initCommand } from "./init.js";
import { instructionsCommand } from "./instructions.js";
import { listDirsCommand } from "./list-dirs.js";
import { mcpCommand } from "./mcp.js";
import { memoryCommand } from "./memory.js";
import { modelCommand } from "./model.js";
import { newCommand } from "./new.js";
import { planCommand } from "./plan.js";
import { renameCommand } from "./rename.js";
import { researchCommand } from "./research.js";
import { resetAllowedToolsCommand } from "./reset-allowed-tools.js";
import { resumeCommand } from "./resume.js";
import { reviewCommand } from "./review.js";
import { rewindCommand } from "./rewind.js";
import { sessionCommand } from "./session.js";
import { shareCommand } from "./share.js";
import { subconsciousCommand } from "./subconscious.js";
import { tasksCommand } from "./tasks.js";
import { usageCommand } from "./usage.js";
import type { SlashCommand } from "./types.js";

export type { SlashCommand, SlashCommandContext, SlashCommandResult } from "./types.js";

export const slashCommands: readonly SlashCommand[] = [
  addDirCommand,
  agentCommand,
  allowAllCommand,
  autopilotCommand,
  clearCommand,
  compactCommand,
  contextCommand,
  copyCommand,
  cwdCommand,
  diffCommand,
  envCommand,
  exitCommand,
  fleetCommand,
  forkCommand,
  helpCommand,
  hooksCommand,
  initCommand,
  instructionsCommand,
  listDirsCommand,
  mcpCommand,
  memoryCommand,
  modelCommand,
  newCommand,
  planCommand,
  renameCommand,
  researchCommand,
  resetAllowedToolsCommand,
  resumeCommand,
  reviewCommand,
  rewindCommand,
  sessionCommand,
  shareCommand,
  subconsciousCommand,
  tasksCommand,
  usageCommand,
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

/** Edits (insert, delete, replace, swap two neighbours) between two words. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number) => (rows[i] as number[])[j] as number;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (rows[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** The command a mistyped name most likely meant, when one is close enough to suggest. */
export function closestCommand(name: string): string | undefined {
  const wanted = name.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const command of slashCommands) {
    for (const candidate of [command.name, ...(command.aliases ?? [])]) {
      const distance = wanted.length >= 2 && candidate.startsWith(wanted) ? 0 : editDistance(wanted, candidate);
      if (!best || distance < best.distance) best = { name: command.name, distance };
    }
  }
  return best && best.distance <= (wanted.length <= 3 ? 1 : 2) ? best.name : undefined;
}

/**
 * Checkpoints: each compaction's summary as a numbered Markdown file in the session folder
 * (`checkpoints/001-<slug>.md`), listed in `checkpoints/index.md` (`# | Title | File`, as Copilot keeps it).
 * The summary is also in the log (session.compaction_complete); the files are for people and /session.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { makePrivateDir, writePrivateFile } from "../../util/private-files.js";
import { slugify } from "./compaction-plan.js";

export function checkpointsDir(sessionDir: string): string {
  return path.join(sessionDir, "checkpoints");
}

/** The next free number: one more than the highest `NNN-*.md` already there (several processes, one folder). */
export function nextCheckpointNumber(dir: string): number {
  if (!existsSync(dir)) return 1;
  let highest = 0;
  for (const name of readdirSync(dir)) {
    const number = /^(\d+)-.*\.md$/.exec(name)?.[1];
    if (number !== undefined) highest = Math.max(highest, Number(number));
  }
  return highest + 1;
}

export interface WrittenCheckpoint {
  number: number;
  path: string;
}

export function writeCheckpoint(sessionDir: string, checkpoint: { title: string; summary: string; agentId?: string }): WrittenCheckpoint {
  const dir = checkpointsDir(sessionDir);
  makePrivateDir(dir);
  const number = nextCheckpointNumber(dir);
  const file = `${String(number).padStart(3, "0")}-${slugify(checkpoint.title)}.md`;
  const full = path.join(dir, file);
  const heading = `# Checkpoint ${number}: ${checkpoint.title}${checkpoint.agentId ? ` (agent ${checkpoint.agentId})` : ""}`;
  // "wx": a number taken meanwhile by another process fails loudly instead of overwriting its file.
  writePrivateFile(full, `${heading}\n\n${checkpoint.summary.trim()}\n`, { exclusive: true });
  const index = path.join(dir, "index.md");
  if (!existsSync(index)) writePrivateFile(index, "# Checkpoints\n\n| # | Title | File |\n|---|---|---|\n");
  writePrivateFile(index, `| ${number} | ${checkpoint.title.replace(/\|/g, "\\|")} | ${file} |\n`, { append: true });
  return { number, path: full };
}

/**
 * What /session shows about the running session: its identity and where it is kept, the files in its
 * folder, its plan, and the compaction checkpoints (numbered Markdown files under checkpoints/). Read from
 * disk each time: another part of the engine writes the plan and the checkpoints.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { SessionEvent } from "../../protocol/events/index.js";
import { readMetadata } from "../../session/session-metadata.js";
import { EVENTS_FILE } from "../../session/session-store.js";
import type { AgentSession } from "../agent-session.js";
import { planFile } from "../modes.js";

export const CHECKPOINTS_DIR = "checkpoints";

export function eventsFileOf(session: Pick<AgentSession, "dir">): string {
  return path.join(session.dir, EVENTS_FILE);
}

/** The session's log as written so far (every write is synchronous, so it is complete). */
export async function readSessionEvents(session: Pick<AgentSession, "dir">): Promise<readonly SessionEvent[]> {
  const { readEventLog } = await import("../../session/event-log-reader.js");
  return readEventLog(eventsFileOf(session)).events;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

export function readPlan(session: Pick<AgentSession, "dir">): string | undefined {
  return readText(planFile(session.dir));
}

/** `/session info`: id, name, times, directories, model and mode, where the log is, whether there is a plan. */
export async function sessionInfo(session: AgentSession): Promise<string> {
  const metadata = await readMetadata(session.dir);
  const context = session.workspace.context;
  const rows: [string, string | undefined][] = [
    ["Session", session.id],
    ["Name", metadata?.name ?? "(none: /rename gives one)"],
    ["Started", metadata?.createdAt],
    ["Updated", metadata?.updatedAt],
    ["Directory", context.cwd],
    ["Git root", context.gitRoot],
    ["Branch", context.branch],
    ["Model", session.model],
    ["Mode", session.mode],
    ["Folder", session.dir],
    ["Events", eventsFileOf(session)],
    ["Plan", readPlan(session) !== undefined ? `${planFile(session.dir)} (/session plan)` : "none"],
    ["Checkpoints", String(listCheckpoints(session.dir).length)],
  ];
  return rows
    .filter((row): row is [string, string] => row[1] !== undefined)
    .map(([label, value]) => `${label.padEnd(12)}${value}`)
    .join("\n");
}

/** Checkpoint files in order of the first number in their names (`001-title.md`, `checkpoint-2.md`…). */
export function listCheckpoints(dir: string): { number: number; file: string }[] {
  let names: string[];
  try {
    names = readdirSync(path.join(dir, CHECKPOINTS_DIR));
  } catch {
    return [];
  }
  return names
    .map((name) => ({ name, match: name.endsWith(".md") ? /\d+/.exec(name) : null }))
    .filter((entry) => entry.match !== null)
    .map((entry) => ({ number: Number(entry.match?.[0]), file: path.join(dir, CHECKPOINTS_DIR, entry.name) }))
    .sort((a, b) => a.number - b.number);
}

/** The first heading or line of a checkpoint, as its title in the list. */
export function checkpointTitle(file: string): string {
  const text = readText(file) ?? "";
  const line = text.split("\n").find((candidate) => candidate.trim() !== "") ?? "";
  return (
    line
      .replace(/^#+\s*/, "")
      .trim()
      .slice(0, 80) || path.basename(file)
  );
}

export function checkpointList(dir: string): string {
  const all = listCheckpoints(dir);
  if (all.length === 0) return "No compaction checkpoints yet (they are written when the conversation is compacted: /compact).";
  return [
    `${all.length} checkpoint(s) in ${path.join(dir, CHECKPOINTS_DIR)}:`,
    ...all.map((entry) => `  ${entry.number}. ${checkpointTitle(entry.file)}`),
    "/session checkpoints <n> shows one.",
  ].join("\n");
}

export function checkpointText(dir: string, number: number): { title: string; text: string } | undefined {
  const found = listCheckpoints(dir).find((entry) => entry.number === number);
  if (!found) return undefined;
  const text = readText(found.file);
  return text === undefined ? undefined : { title: path.basename(found.file), text };
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** `/session files`: what the session folder holds, and the files this session's tools changed. */
export function sessionFiles(session: AgentSession): string {
  let names: string[] = [];
  try {
    names = readdirSync(session.dir, { recursive: true, encoding: "utf8" }).sort();
  } catch {
    // a folder that is gone lists nothing
  }
  const stored = names.flatMap((name) => {
    try {
      const stats = statSync(path.join(session.dir, name));
      return stats.isFile() ? [`  ${name}  ${formatSize(stats.size)}`] : [];
    } catch {
      return [];
    }
  });
  const changed = session.metrics.codeChanges.filesModified;
  return [
    `Session folder ${session.dir}:`,
    ...(stored.length > 0 ? stored : ["  (empty)"]),
    changed.length > 0
      ? `Files changed by tools in this process:\n${changed.map((file) => `  ${file}`).join("\n")}`
      : "No files changed by tools in this process.",
  ].join("\n");
}

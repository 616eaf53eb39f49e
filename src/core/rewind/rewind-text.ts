/** How rewind points and a rewind's outcome read, for /rewind's list and reports (the TUI's dialog uses them too). */
import path from "node:path";
import type { EventData } from "../../protocol/events/index.js";
import type { RewindPoint, RewindScope } from "../../protocol/rewind.js";
import { firstLine } from "../../session/rewind/rewind-timeline.js";

export const SCOPE_LABELS: Record<RewindScope, string> = {
  "conversation-and-files": "Conversation and files",
  conversation: "Conversation only",
  files: "Files only",
};

/** A path as short as it reads well: relative to the working directory when inside it. */
export function shownPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}

export function filesSummary(files: readonly string[], cwd: string, max = 3): string {
  if (files.length === 0) return "no files changed";
  const names = files.slice(0, max).map((file) => shownPath(file, cwd));
  return `${files.length} file${files.length === 1 ? "" : "s"} (${names.join(", ")}${files.length > max ? ", …" : ""})`;
}

/** One line per point: `3. “fix the parser” · 2 files (a.ts, b.ts) +10 −3`. */
export function describePoint(point: RewindPoint, cwd: string): string {
  const head = point.kind === "prompt" ? `${point.number}. “${firstLine(point.text)}”` : `${point.number}. ↶ ${point.text}`;
  const lines = point.linesAdded + point.linesRemoved > 0 ? ` +${point.linesAdded} −${point.linesRemoved}` : "";
  const incomplete = point.incomplete.length > 0 ? " · incomplete: a command changed files that are not known" : "";
  return `${head} · ${filesSummary(point.changedFiles, cwd)}${lines}${incomplete}`;
}

export function pointList(points: readonly RewindPoint[], cwd: string): string {
  if (points.length === 0) return "Nothing to rewind to yet: no prompt was sent in this session.";
  return [
    ...points.map((point) => describePoint(point, cwd)),
    "",
    "Go back to before a point with /rewind <number> [conversation|files] (both by default), or /rewind in the TUI to choose with a preview; going back to a rewind (↶) undoes it.",
  ].join("\n");
}

/** What a rewind did (its session.snapshot_rewind), in one line; paths shown relative to `cwd`, or by name. */
export function rewindEventText(data: EventData<"session.snapshot_rewind">, cwd?: string): string {
  const show = (files: readonly string[]) => {
    const names = files.slice(0, 3).map((file) => (cwd ? shownPath(file, cwd) : path.basename(file)));
    return `${files.length} file${files.length === 1 ? "" : "s"} (${names.join(", ")}${files.length > 3 ? ", …" : ""})`;
  };
  const scope = data.scope ?? "conversation-and-files";
  const what = scope === "files" ? "the files" : scope === "conversation" ? "the conversation" : "the conversation and files";
  const parts = [`↶ Rewound ${what}`];
  if (scope !== "files") parts.push(`${data.eventsRemoved} event${data.eventsRemoved === 1 ? "" : "s"} hidden from the model (kept in the log)`);
  const restored = data.restoredFiles ?? [];
  if (scope !== "conversation") parts.push(restored.length > 0 ? `restored ${show(restored)}` : "no file needed restoring");
  const kept = (data.skippedFiles ?? []).filter((file) => file.reason === "changed-since").map((file) => file.path);
  if (kept.length > 0) parts.push(`kept ${show(kept)} changed since the agent's last change`);
  for (const failed of (data.skippedFiles ?? []).filter((file) => file.reason === "error"))
    parts.push(`could not restore ${failed.path}: ${failed.message ?? "error"}`);
  if ((data.incomplete ?? []).length > 0) parts.push(`not everything could be restored: ${(data.incomplete ?? []).join("; ")}`);
  return `${parts.join(" · ")}. /rewind lists this rewind too: going back to it undoes it.`;
}

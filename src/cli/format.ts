/** Small formatting helpers for the headless printers. */

import { toolCallSubject } from "../protocol/tool-subject.js";

export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`;
  return `${(count / 1_000_000).toFixed(1)}M`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** The first line of a text, shortened to `width` characters. */
export function firstLine(text: string, width = 100): string {
  const line = text.split("\n").find((candidate) => candidate.trim() !== "") ?? "";
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

/** A one-line summary of a tool's arguments for the trace: the bash command, the path, the pattern. */
export function describeToolCall(toolName: string, args: unknown): string {
  const detail = toolCallSubject(args, ["command", "path", "pattern", "shellId", "summary"]);
  return detail !== undefined ? `${toolName} ${firstLine(detail, 80)}` : toolName;
}

/**
 * What the footer says, without Ink: its segments (mode · permission mode · model · context use, then cwd and
 * the background count) and their formatting. Apart from the component so the TUI's first frame can be
 * written before Ink is loaded (first-frame.ts).
 */
import { homedir } from "node:os";
import path from "node:path";
import type { AgentMode } from "../../protocol/events/index.js";
import type { Theme } from "../theme.js";

/** "Manual Approval", or what approves calls without asking ("Allow All", "Allow All Tools", "Allowed: shell"). */
export type PermissionModeLabel = string;

export interface FooterProps {
  mode: AgentMode;
  model: string;
  /** The custom agent the session runs as. */
  agent?: string;
  permissionMode: PermissionModeLabel;
  usage: { currentTokens: number; tokenLimit: number } | undefined;
  cwd: string;
  branch?: string;
  backgroundCount: number;
  theme: Theme;
  width: number;
  busy?: boolean;
  hint?: string;
}

const MODE_LABELS: Record<AgentMode, string> = { interactive: "Interactive", plan: "Plan", autopilot: "Autopilot" };
export const SEPARATOR = " · ";

/** 850, 1.2k, 15k, 128k, 1.5M. */
export function formatTokens(count: number): string {
  if (count < 1000) return String(Math.max(0, Math.round(count)));
  if (count < 10_000) return `${(count / 1000).toFixed(1).replace(/\.0$/, "")}k`;
  if (count < 1_000_000) return `${Math.round(count / 1000)}k`;
  return `${(count / 1_000_000).toFixed(1).replace(/\.0$/, "")}M`;
}

/** "12% (15k/128k)", or just the tokens when the limit is unknown. */
export function formatUsage(usage: { currentTokens: number; tokenLimit: number }): string {
  if (usage.tokenLimit <= 0) return `${formatTokens(usage.currentTokens)} tokens`;
  const percent = Math.round((usage.currentTokens / usage.tokenLimit) * 100);
  return `${percent}% (${formatTokens(usage.currentTokens)}/${formatTokens(usage.tokenLimit)})`;
}

/** The directory with the home directory shown as `~`. */
export function shortenPath(dir: string, home = homedir()): string {
  if (home && (dir === home || dir.startsWith(home + path.sep))) return `~${dir.slice(home.length)}`;
  return dir;
}

export interface Segment {
  text: string;
  color?: string;
  bold?: boolean;
}

function modeColor(mode: AgentMode, theme: Theme): string | undefined {
  if (mode === "plan") return theme.accent;
  if (mode === "autopilot") return theme.warning;
  return undefined;
}

function usageColor(usage: { currentTokens: number; tokenLimit: number }, theme: Theme): string | undefined {
  if (usage.tokenLimit <= 0) return theme.muted;
  const ratio = usage.currentTokens / usage.tokenLimit;
  if (ratio >= 0.95) return theme.error;
  if (ratio >= 0.8) return theme.warning;
  return theme.muted;
}

export function footerSegments(props: FooterProps): { left: Segment[]; right: Segment[] } {
  const { theme } = props;
  const left: Segment[] = [
    { text: MODE_LABELS[props.mode], color: modeColor(props.mode, theme), bold: props.mode !== "interactive" },
    { text: props.permissionMode, color: props.permissionMode === "Manual Approval" ? theme.muted : theme.error },
    { text: props.model },
  ];
  if (props.usage) left.push({ text: formatUsage(props.usage), color: usageColor(props.usage, theme) });
  // Last on the left, so the narrow layout below still finds mode, permission, model and usage in place.
  if (props.agent) left.push({ text: `agent: ${props.agent}`, color: theme.accent });
  if (props.hint) return { left, right: [{ text: props.hint, color: theme.warning, bold: true }] };
  const right: Segment[] = [];
  if (props.busy) right.push({ text: "esc to interrupt", color: theme.muted });
  right.push({ text: `${shortenPath(props.cwd)}${props.branch ? ` (${props.branch})` : ""}`, color: theme.muted });
  if (props.backgroundCount > 0) right.push({ text: `${props.backgroundCount} background`, color: theme.accent });
  return { left, right };
}

/** The segments as plain text, as the footer shows them without colour. */
export const plain = (segments: Segment[]) => segments.map((segment) => segment.text).join(SEPARATOR);

/**
 * What lets tool calls run without asking, from every source: --allow-all-tools / -paths / -urls and --yolo
 * (the command line), AGENT_ALLOW_ALL / COPILOT_ALLOW_ALL (the environment), /allow-all (the command), and
 * allow rules that cover a whole kind of call (`shell`, `write`, a tool by name) from flags or settings.json.
 * The footer and `/allow-all show` both read this, so neither can show less than is in force.
 */
import type { Rule } from "../permissions/rules.js";

export interface PermissionSummary {
  /** The sources of each allow-all in force; empty when it is off. */
  tools: string[];
  paths: string[];
  urls: string[];
  /** Allow rules with no argument: `shell` (settings.json permissions.allow). */
  broadRules: string[];
}

/** An allow rule that approves a whole kind of call rather than a named command, path or URL. */
export function isBroadAllowRule(rule: Rule): boolean {
  if (rule.action !== "allow") return false;
  const { target } = rule;
  if (target.kind === "shell") return target.words === undefined;
  if (target.kind === "write" || target.kind === "read") return target.path === undefined;
  if (target.kind === "url") return target.pattern === undefined;
  return target.inner === undefined && target.name !== "view" && target.name !== "grep" && target.name !== "glob";
}

const list = (items: readonly string[]) => items.join(", ");

/** The footer's permission slot: "Allow All", "Allow All Tools", "Allowed: shell, write" or "Manual Approval". */
export function permissionModeLabel(summary: PermissionSummary): string {
  const kinds = [summary.tools.length > 0 ? "Tools" : "", summary.paths.length > 0 ? "Paths" : "", summary.urls.length > 0 ? "URLs" : ""].filter(Boolean);
  if (kinds.length === 3) return "Allow All";
  if (kinds.length > 0) return `Allow All ${kinds.join(" + ")}`;
  if (summary.broadRules.length > 0) return `Allowed: ${list(summary.broadRules.map((rule) => rule.replace(/ \(.*\)$/, "").replace(/`/g, "")))}`;
  return "Manual Approval";
}

/** `/allow-all show`: on or off, then each thing in force with where it came from. */
export function describePermissionSummary(summary: PermissionSummary): string {
  const on = summary.tools.length > 0 && summary.paths.length > 0 && summary.urls.length > 0;
  const lines = [`Allow all is ${on ? "on" : "off"}.`];
  if (summary.tools.length > 0) lines.push(`Every tool call runs without asking (${list(summary.tools)}).`);
  if (summary.paths.length > 0) lines.push(`Paths outside the allowed directories need no approval (${list(summary.paths)}).`);
  if (summary.urls.length > 0) lines.push(`Every URL is allowed (${list(summary.urls)}).`);
  if (summary.broadRules.length > 0) lines.push(`Allow rules that cover a whole kind of call: ${list(summary.broadRules)}.`);
  if (lines.length > 1) lines.push("Deny rules and the safety checks still apply.");
  else lines[0] = "Allow all is off: tool calls that need approval ask.";
  return lines.join("\n");
}

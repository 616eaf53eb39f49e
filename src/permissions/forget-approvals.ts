/**
 * `agent --reset-allowed-tools`: forgets the "always in this directory" approvals remembered for a directory
 * (its entry in $AGENT_HOME/permissions-config.json), so nobody has to edit the JSON by hand. Entries of
 * other directories stay as they are; those of directories above it still apply there, so they are named.
 */
import { existsSync, readFileSync } from "node:fs";
import { replacePrivateFile } from "../util/private-files.js";
import { isInside } from "./paths.js";
import { permissionsConfigPath } from "./permissions-config.js";

export interface ForgetReport {
  file: string;
  /** One line per forgotten approval, e.g. "commands: git add, touch". */
  forgotten: string[];
  /** Directories above `dir` whose remembered approvals still apply in it. */
  stillApplying: string[];
}

/** "commands: git add, touch" for `{ kind: "commands", commandIdentifiers: [...] }`; just the kind when it has no list. */
function describeEntry(item: unknown): string {
  if (typeof item !== "object" || item === null) return JSON.stringify(item);
  const { kind, ...rest } = item as Record<string, unknown>;
  const lists = Object.values(rest).flatMap((value) => (Array.isArray(value) ? value.map(String) : typeof value === "string" ? [value] : []));
  const label = typeof kind === "string" ? kind : "approval";
  return lists.length > 0 ? `${label}: ${lists.join(", ")}` : label;
}

export function forgetRememberedApprovals(agentHome: string, dir: string): ForgetReport {
  const file = permissionsConfigPath(agentHome);
  const report: ForgetReport = { file, forgotten: [], stillApplying: [] };
  if (!existsSync(file)) return report;
  // A file that is not valid JSON is left alone: it is the person's to fix, and rewriting it would lose it.
  const data: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (typeof data !== "object" || data === null || Array.isArray(data)) return report;
  const locations = (data as { locations?: unknown }).locations;
  if (typeof locations !== "object" || locations === null) return report;
  const byDir = locations as Record<string, unknown>;
  for (const location of Object.keys(byDir)) {
    if (location !== dir && isInside(dir, location)) report.stillApplying.push(location);
  }
  const entry = byDir[dir];
  if (entry === undefined) return report;
  const approvals = typeof entry === "object" && entry !== null ? (entry as { tool_approvals?: unknown }).tool_approvals : undefined;
  report.forgotten = Array.isArray(approvals) ? approvals.map(describeEntry) : [];
  delete byDir[dir];
  replacePrivateFile(file, `${JSON.stringify(data, null, 2)}\n`);
  return report;
}

/**
 * $AGENT_HOME/permissions-config.json: approvals remembered per directory, in Copilot CLI's format
 * `{ "locations": { "<dir>": { "tool_approvals": [ { "kind": "commands", "commandIdentifiers": [...] } ] } } }`.
 * An approval recorded for a directory applies there and below. Unknown entries are kept as they are.
 */
import { readFileSync, statSync } from "node:fs";
import { replacePrivateFile } from "../util/private-files.js";
import path from "node:path";
import { emptyApprovals, type Approvals } from "./approvals.js";
import { isInside } from "./paths.js";

type ApprovalEntry =
  | { kind: "commands"; commandIdentifiers: string[] }
  | { kind: "write"; paths: string[] }
  | { kind: "urls"; origins: string[] }
  | { kind: "paths"; paths: string[] }
  | { kind: "tools"; toolNames: string[] };

interface PermissionsFile {
  locations?: Record<string, { tool_approvals?: unknown[] } & Record<string, unknown>>;
  [key: string]: unknown;
}

export function permissionsConfigPath(agentHome: string): string {
  return path.join(agentHome, "permissions-config.json");
}

function readFile(file: string): PermissionsFile {
  try {
    const value: unknown = JSON.parse(readFileSync(file, "utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as PermissionsFile) : {};
  } catch {
    return {};
  }
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []);

/** The approvals that apply in `dir`: those recorded for it or for a directory above it. */
export function loadRememberedApprovals(agentHome: string, dir: string): Approvals {
  const approvals = emptyApprovals();
  const file = readFile(permissionsConfigPath(agentHome));
  for (const [location, entry] of Object.entries(file.locations ?? {})) {
    if (!isInside(dir, location)) continue;
    for (const item of entry.tool_approvals ?? []) {
      if (typeof item !== "object" || item === null) continue;
      const record = item as Record<string, unknown>;
      if (record.kind === "commands") strings(record.commandIdentifiers).forEach((id) => approvals.commands.add(id));
      // A bare `{"kind":"write"}` (all writes) is ignored: no dialog offers that any more.
      else if (record.kind === "write") strings(record.paths).forEach((entryPath) => approvals.writes.add(entryPath));
      else if (record.kind === "urls") strings(record.origins).forEach((origin) => approvals.origins.add(origin));
      else if (record.kind === "paths") strings(record.paths).forEach((entryPath) => approvals.paths.add(entryPath));
      else if (record.kind === "tools") strings(record.toolNames).forEach((name) => approvals.tools.add(name));
    }
  }
  return approvals;
}

/** Adds approvals to `dir`'s entry, merging with what is there; written atomically. */
export function rememberApprovals(agentHome: string, dir: string, approvals: Approvals): void {
  const file = permissionsConfigPath(agentHome);
  const data = readFile(file);
  const locations = (data.locations ??= {});
  const entry = (locations[dir] ??= {});
  const list = (entry.tool_approvals ??= []);
  const add = (next: ApprovalEntry, same: (item: Record<string, unknown>) => boolean, merge: (item: Record<string, unknown>) => void) => {
    const existing = list.find((item): item is Record<string, unknown> => typeof item === "object" && item !== null && same(item as Record<string, unknown>));
    if (existing) merge(existing);
    else list.push(next);
  };
  const union = (key: string, values: Set<string>) => (item: Record<string, unknown>) => {
    item[key] = [...new Set([...strings(item[key]), ...values])];
  };
  if (approvals.commands.size > 0)
    add({ kind: "commands", commandIdentifiers: [...approvals.commands] }, (item) => item.kind === "commands", union("commandIdentifiers", approvals.commands));
  // Merging into an old bare write entry narrows it to the paths named.
  if (approvals.writes.size > 0) add({ kind: "write", paths: [...approvals.writes] }, (item) => item.kind === "write", union("paths", approvals.writes));
  if (approvals.origins.size > 0) add({ kind: "urls", origins: [...approvals.origins] }, (item) => item.kind === "urls", union("origins", approvals.origins));
  if (approvals.paths.size > 0) add({ kind: "paths", paths: [...approvals.paths] }, (item) => item.kind === "paths", union("paths", approvals.paths));
  if (approvals.tools.size > 0) add({ kind: "tools", toolNames: [...approvals.tools] }, (item) => item.kind === "tools", union("toolNames", approvals.tools));
  replacePrivateFile(file, `${JSON.stringify(data, null, 2)}\n`);
}

/** What identifies one version of the file: a rewrite (always by rename) or an edit changes it. */
function fileStamp(file: string): string {
  try {
    const stats = statSync(file);
    return `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
  } catch {
    return "absent";
  }
}

/**
 * The approvals remembered for one directory, as the file says now: a running session sees what another
 * process changed (`agent --reset-allowed-tools`, an "always" answered in another session, a hand edit),
 * because each decision checks the file's stat (one syscall) and reads it again only when it changed.
 */
export class RememberedApprovals {
  private stamp: string | undefined;
  private approvals: Approvals = emptyApprovals();

  constructor(
    private readonly agentHome: string,
    private readonly dir: string,
  ) {}

  current(): Approvals {
    const stamp = fileStamp(permissionsConfigPath(this.agentHome));
    if (stamp !== this.stamp) {
      this.approvals = loadRememberedApprovals(this.agentHome, this.dir);
      this.stamp = stamp;
    }
    return this.approvals;
  }

  /** Adds to the file ("yes, always in this directory"); the next decision reads it back. */
  remember(approvals: Approvals): void {
    rememberApprovals(this.agentHome, this.dir, approvals);
  }

  /** Adds to another location's entry (an SDK app's location approval); it counts here when that location covers this directory. */
  rememberAt(location: string, approvals: Approvals): void {
    rememberApprovals(this.agentHome, location, approvals);
  }

  /** The approvals kept for a location, and for the locations above it. */
  keptAt(location: string): Approvals {
    return loadRememberedApprovals(this.agentHome, location);
  }
}

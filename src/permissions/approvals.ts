/**
 * Approvals given by a person: "yes for this session" (kept in memory) and "yes, always in this directory"
 * (kept in $AGENT_HOME/permissions-config.json in Copilot CLI's format). Both have the same shape.
 */

/** What a request still needs before it may run; the decision lists these when it asks. */
export type Need =
  | { kind: "command"; identifier: string }
  /** `path` as written or resolved, for messages; `resolved` when the gate could resolve it (only then can it be remembered). */
  | { kind: "write"; path?: string; resolved?: string }
  | { kind: "path"; text: string; resolved?: string }
  | { kind: "url"; url: string; origin?: string }
  | { kind: "tool"; name: string }
  /** Only a person, once, can approve this: a command the analysis could not follow, an unverifiable delete. */
  | { kind: "confirm"; reason: string };

export interface Approvals {
  /** Command identifiers ("git add"): the same command stem. */
  commands: Set<string>;
  /**
   * Writes to these exact paths (resolved). Never "all writes": an approval names what the person saw, and a
   * bare `{"kind":"write"}` entry (which older versions stored) grants nothing.
   */
  writes: Set<string>;
  /** URL origins ("https://example.com"). */
  origins: Set<string>;
  /** Exact paths outside the allowed roots. */
  paths: Set<string>;
  /** Tools approved by name. */
  tools: Set<string>;
}

export function emptyApprovals(): Approvals {
  return { commands: new Set(), writes: new Set(), origins: new Set(), paths: new Set(), tools: new Set() };
}

export function mergeApprovals(...all: Approvals[]): Approvals {
  const merged = emptyApprovals();
  for (const approvals of all) addApprovals(merged, approvals);
  return merged;
}

export function addApprovals(into: Approvals, from: Approvals): void {
  for (const command of from.commands) into.commands.add(command);
  for (const entry of from.writes) into.writes.add(entry);
  for (const origin of from.origins) into.origins.add(origin);
  for (const entry of from.paths) into.paths.add(entry);
  for (const tool of from.tools) into.tools.add(tool);
}

/** What approving these needs for longer than once grants; `confirm` needs are never remembered. */
export function approvalsFromNeeds(needs: readonly Need[]): Approvals {
  const approvals = emptyApprovals();
  for (const need of needs) {
    if (need.kind === "command") approvals.commands.add(need.identifier);
    else if (need.kind === "write" && need.resolved) approvals.writes.add(need.resolved);
    else if (need.kind === "path" && need.resolved) approvals.paths.add(need.resolved);
    else if (need.kind === "url" && need.origin) approvals.origins.add(need.origin);
    else if (need.kind === "tool") approvals.tools.add(need.name);
  }
  return approvals;
}

/** Whether "yes for this session / always" means anything for these needs. */
export function canRemember(needs: readonly Need[]): boolean {
  return needs.length > 0 && needs.every((need) => need.kind !== "confirm" && !((need.kind === "path" || need.kind === "write") && !need.resolved));
}

/** What remembering grants, as lists: what the dialog names in its labels, so a label and what is stored cannot differ. */
export interface ApprovalGrants {
  commands: string[];
  writes: string[];
  paths: string[];
  origins: string[];
  tools: string[];
}

export function grantsOf(approvals: Approvals): ApprovalGrants {
  return {
    commands: [...approvals.commands],
    writes: [...approvals.writes],
    paths: [...approvals.paths],
    origins: [...approvals.origins],
    tools: [...approvals.tools],
  };
}

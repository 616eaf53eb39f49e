/**
 * Copilot's permission locations (an SDK app's session.permissions.locations.*): approvals kept in
 * permissions-config.json under a location (permissions/permission-locations.ts), stored for one and given to
 * this session at once, or read back for a directory and given to this session. Each is a command.
 */
import type { AppliedLocation, ApprovalGrant, CommandResults, SessionCommand } from "../protocol/commands.js";
import { emptyApprovals, type Approvals } from "../permissions/approvals.js";
import { canonicalDirectory, locationOf } from "../permissions/permission-locations.js";
import type { RememberedApprovals } from "../permissions/permissions-config.js";
import type { PermissionBroker } from "./permission-broker.js";

const LOCATION_COMMANDS = ["resolve_permission_location", "remember_location_approvals", "apply_location_approvals"] as const;
export type LocationCommand = Extract<SessionCommand, { type: (typeof LOCATION_COMMANDS)[number] }>;

export function isLocationCommand(command: SessionCommand): command is LocationCommand {
  return (LOCATION_COMMANDS as readonly string[]).includes(command.type);
}

function approvalsOf(grants: readonly ApprovalGrant[]): Approvals {
  const approvals = emptyApprovals();
  for (const grant of grants) {
    const value = grant.value.trim();
    if (grant.kind === "command") approvals.commands.add(value);
    else if (grant.kind === "tool") approvals.tools.add(value);
    else approvals.origins.add(value);
  }
  return approvals;
}

function listed(approvals: Approvals): AppliedLocation["applied"] {
  const of = (kind: AppliedLocation["applied"][number]["kind"], values: Set<string>) => [...values].map((value) => ({ kind, value }));
  return [
    ...of("command", approvals.commands),
    ...of("tool", approvals.tools),
    ...of("url", approvals.origins),
    ...of("write", approvals.writes),
    ...of("path", approvals.paths),
  ];
}

export class PermissionLocations {
  /** The location applied last, to say whether the next apply changes it. */
  private applied: string | undefined;

  constructor(
    private readonly remembered: RememberedApprovals,
    private readonly permissions: PermissionBroker,
  ) {}

  handle<C extends LocationCommand>(command: C): CommandResults[C["type"]];
  handle(command: LocationCommand): CommandResults[LocationCommand["type"]] {
    switch (command.type) {
      case "resolve_permission_location":
        return locationOf(command.workingDirectory);
      case "remember_location_approvals": {
        // Filed under the key as given, canonicalised: an existing directory, as resolve names one.
        const location = canonicalDirectory(command.locationKey);
        if ("problem" in location) return location.problem;
        const approvals = approvalsOf(command.add);
        this.remembered.rememberAt(location.path, approvals);
        this.permissions.grant(approvals);
        return undefined;
      }
      case "apply_location_approvals": {
        const location = locationOf(command.workingDirectory);
        if (typeof location === "string") return location;
        const kept = this.remembered.keptAt(location.locationKey);
        this.permissions.grant(kept);
        const changed = this.applied !== undefined && this.applied !== location.locationKey;
        this.applied = location.locationKey;
        return { ...location, changed, applied: listed(kept) };
      }
    }
  }
}

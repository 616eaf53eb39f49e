/**
 * Which answers a permission question offers, worked out once (by the permission broker) and put on the
 * `permission.requested` event: the TUI dialog, ACP's options and an SDK client all show this list. The
 * "session" and "always" labels name every scope the approval would store, from the same value the broker
 * stores, so an approval grants exactly what its label says.
 */
import type { ApprovalGrants } from "../permissions/approvals.js";
import type { PermissionOption } from "../protocol/events/index.js";

/** "a", "a and b", "a, b and c". */
function listInWords(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** Every scope the approval stores, in words: each command, each write, each path and origin, each tool. */
export function describeGrants(grants: ApprovalGrants): string | undefined {
  const parts = [
    ...grants.commands.map((id) => `\`${id}\``),
    ...(grants.writes.length > 0 ? [`writes to ${grants.writes.join(", ")}`] : []),
    ...(grants.paths.length > 0 ? [`access to ${grants.paths.join(", ")}`] : []),
    ...grants.origins,
    // `memory` is the approval name of every change to the memory stores, whichever tool makes it.
    ...grants.tools.map((name) => (name === "memory" ? "memory updates" : `the tool \`${name}\``)),
  ];
  return parts.length > 0 ? listInWords(parts) : undefined;
}

/**
 * Yes · yes for this session · yes always in this directory · no. The two remembering answers are offered
 * only when an approval would store something (`grants`) that can be named.
 */
export function permissionOptions(grants: ApprovalGrants | undefined): PermissionOption[] {
  const scope = grants ? describeGrants(grants) : undefined;
  return [
    { id: "allow-once", kind: "allow_once", label: "Yes" },
    ...(scope !== undefined
      ? [
          { id: "allow-session", kind: "allow_session" as const, label: `Yes, and don't ask again this session for ${scope}` },
          { id: "allow-always", kind: "allow_always" as const, label: `Yes, and always allow ${scope} in this directory` },
        ]
      : []),
    { id: "reject", kind: "reject_once", label: "No" },
  ];
}

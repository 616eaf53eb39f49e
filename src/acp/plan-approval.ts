/**
 * The plan review (exit_plan_mode) as a `session/request_permission`: ACP has no question of its own for it,
 * and a permission request with one option per way to go on is what editors show for a mode switch.
 */
import type { PermissionOption, RequestPermissionOutcome } from "@agentclientprotocol/sdk";
import { planActionSchema, type PlanApprovalReply } from "../protocol/interactions.js";

const LABELS: Record<string, string> = {
  interactive: "Implement the plan",
  autopilot: "Implement the plan in autopilot",
  autopilot_fleet: "Implement the plan in autopilot, with parallel agents",
  exit_only: "Leave plan mode without implementing it",
};

const PREFIX = "plan:";

export function planApprovalOptions(actions: readonly string[], recommended: string): PermissionOption[] {
  const ordered = [...actions].sort((a, b) => Number(b === recommended) - Number(a === recommended));
  return [
    ...ordered.map((action) => ({ optionId: `${PREFIX}${action}`, name: LABELS[action] ?? action, kind: "allow_once" as const })),
    { optionId: "keep-planning", name: "Keep planning", kind: "reject_once" },
  ];
}

export function planApprovalReply(outcome: RequestPermissionOutcome): PlanApprovalReply {
  if (outcome.outcome !== "selected" || !outcome.optionId.startsWith(PREFIX)) return { approved: false };
  const action = planActionSchema.safeParse(outcome.optionId.slice(PREFIX.length));
  return action.success ? { approved: true, selectedAction: action.data } : { approved: false };
}

/**
 * The session's permission switches as commands: /allow-all (set_allow_all) and /reset-allowed-tools
 * (reset_allowed_tools). Each changes the broker and tells what changed as an event; the facade only
 * forwards them here.
 */
import type { SessionCommand } from "../protocol/commands.js";
import type { Emit } from "./event-sink.js";
import type { PermissionBroker } from "./permission-broker.js";

const PERMISSION_COMMANDS = ["set_allow_all", "reset_allowed_tools"] as const;
export type PermissionCommand = Extract<SessionCommand, { type: (typeof PERMISSION_COMMANDS)[number] }>;

export function isPermissionCommand(command: SessionCommand): command is PermissionCommand {
  return (PERMISSION_COMMANDS as readonly string[]).includes(command.type);
}

export function handlePermissionCommand(permissions: PermissionBroker, emit: Emit, command: PermissionCommand): void {
  if (command.type === "reset_allowed_tools") {
    permissions.resetAllowedTools();
    emit("session.info", { infoType: "permissions", message: "This session's approvals are forgotten; approvals kept for this directory remain." });
    return;
  }
  const before = permissions.allowAll;
  const summaryBefore = JSON.stringify(permissions.summary);
  permissions.setAllowAll(command.on);
  const after = permissions.allowAll;
  // An unchanged switch (allow-all already on, or still on through another source) says nothing.
  if (before === after && JSON.stringify(permissions.summary) === summaryBefore) return;
  emit("session.permissions_changed", {
    previousMode: before ? "allow-all" : "manual",
    mode: after ? "allow-all" : "manual",
    summary: permissions.summary,
  });
}

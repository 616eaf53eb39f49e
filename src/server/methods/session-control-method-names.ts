/**
 * The names of the permission, schedule and suspend method families (permission-methods.ts,
 * schedule-methods.ts), kept apart from their handlers so the AgentServer registers them at the handshake
 * without loading the engine's side.
 */

/** A session's permissions: approve-all, rules, allowed directories, pending questions (permission-methods.ts). */
export const PERMISSION_METHODS = [
  "session.permissions.setApproveAll",
  "session.permissions.pendingRequests",
  "session.permissions.setRequired",
  "session.permissions.notifyPromptShown",
  "session.permissions.modifyRules",
  "session.permissions.configure",
  "session.permissions.urls.setUnrestrictedMode",
  "session.permissions.paths.list",
  "session.permissions.paths.add",
  "session.permissions.paths.updatePrimary",
  "session.permissions.paths.isPathWithinAllowedDirectories",
  "session.permissions.paths.isPathWithinWorkspace",
] as const;

/** Scheduled prompts (none exist in agent) and suspending a session (schedule-methods.ts). */
export const SCHEDULE_METHODS = ["session.schedule.list", "session.schedule.stop", "session.suspend"] as const;

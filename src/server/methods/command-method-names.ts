/**
 * The names of the slash-command, task, user-shell and UI method families (command-methods.ts,
 * task-methods.ts, shell-methods.ts), kept apart from their handlers so the AgentServer registers them at
 * the handshake without loading the engine's side.
 */

/** Slash commands: the engine's and the clients' own (command-methods.ts). */
export const COMMAND_METHODS = [
  "session.commands.list",
  "session.commands.invoke",
  "session.commands.execute",
  "session.commands.enqueue",
  "session.commands.respondToQueuedCommand",
  "session.commands.handlePendingCommand",
] as const;

/** The session's background work (its agents), read from the session's state (task-methods.ts). */
export const TASK_METHODS = [
  "session.tasks.list",
  "session.tasks.refresh",
  "session.tasks.waitForPending",
  "session.tasks.getProgress",
  "session.tasks.getCurrentPromotable",
  "session.tasks.promoteToBackground",
  "session.tasks.promoteCurrentToBackground",
  "session.tasks.cancel",
  "session.tasks.remove",
  "session.tasks.sendMessage",
  "session.tasks.startAgent",
] as const;

/** The user's own shell commands (`!cmd`) and a fleet (/fleet), as the person would type them (shell-methods.ts). */
export const SHELL_METHODS = [
  "session.shell.exec",
  "session.shell.kill",
  "session.shell.executeUserRequested",
  "session.shell.cancelUserRequested",
  "session.fleet.start",
] as const;

/** Forms put to the client, and the answers to questions agent never asks (command-methods.ts). */
export const UI_METHODS = [
  "session.ui.elicitation",
  "session.ui.ephemeralQuery",
  "session.ui.handlePendingUserInput",
  "session.ui.handlePendingSampling",
  "session.ui.handlePendingAutoModeSwitch",
  "session.ui.handlePendingExitPlanMode",
  "session.ui.handlePendingSessionLimitsExhausted",
  "session.ui.registerDirectAutoModeSwitchHandler",
  "session.ui.unregisterDirectAutoModeSwitchHandler",
  "session.mcp.headers.handlePendingHeadersRefreshRequest",
] as const;

/**
 * The names of the session-state method families (session-state-methods.ts: name, activity, permission mode,
 * queue, SQL todos, visibility, completions, telemetry; event-log reads; usage, instruction sources, shutdown, the
 * metadata snapshot and working directory, the current tools), kept apart from their handlers so
 * the AgentServer registers them at the handshake without loading the engine.
 */
export const SESSION_STATE_METHODS = [
  "session.name.get",
  "session.name.set",
  "session.name.setAuto",
  "session.metadata.activity",
  "session.permissions.getMode",
  "session.permissions.setMode",
  "session.queue.pendingItems",
  "session.queue.removeMostRecent",
  "session.queue.clear",
  "session.plan.readSqlTodos",
  "session.plan.readSqlTodosWithDependencies",
  "session.visibility.get",
  "session.visibility.set",
  "session.completions.getTriggerCharacters",
  "session.completions.request",
  "session.telemetry.getEngagementId",
  "session.eventLog.tail",
  "session.eventLog.read",
  "session.usage.getMetrics",
  "session.permissions.resetSessionApprovals",
  "session.instructions.getSources",
  "session.shutdown",
  "session.metadata.snapshot",
  "session.metadata.setWorkingDirectory",
  "session.metadata.recordContextChange",
  "session.tools.getCurrentMetadata",
  "session.tools.initializeAndValidate",
  "session.metadata.isProcessing",
  "session.lsp.initialize",
  "session.telemetry.setFeatureOverrides",
] as const;

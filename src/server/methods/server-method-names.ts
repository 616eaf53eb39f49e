/**
 * The methods of src/server/methods/, by family (names only: the AgentServer registers
 * them before the engine loads; each family's file answers them).
 */
export const SESSIONS_METHODS = [
  "sessions.list",
  "sessions.save",
  "sessions.close",
  "sessions.releaseLock",
  "sessions.checkInUse",
  "sessions.getSizes",
  "sessions.findByPrefix",
  "sessions.findByTaskId",
  "sessions.getLastForContext",
  "sessions.enrichMetadata",
  "sessions.bulkDelete",
  "sessions.pruneOld",
  "sessions.open",
  "sessions.connect",
] as const;

export const RUNTIME_METHODS = [
  "session.getForeground",
  "session.setForeground",
  "agentRegistry.spawn",
  "session.extensions.sendAttachmentsToMessage",
] as const;

export const PLAN_METHODS = ["session.plan.read", "session.plan.update", "session.plan.delete"] as const;

/**
 * The server-scoped methods on stored sessions and the runtime's modes (names only: the AgentServer registers
 * them before the engine loads; src/server/methods/sessions-methods.ts and runtime-methods.ts answer them).
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

/**
 * The names of the history and event-interest method families (history-methods.ts, event-log-methods.ts),
 * kept apart from their handlers so the AgentServer registers them at the handshake without loading the engine.
 */

export const HISTORY_METHODS = ["session.history.summarizeForHandoff", "session.history.abortManualCompaction"] as const;

export const EVENT_LOG_METHODS = ["session.eventLog.registerInterest", "session.eventLog.releaseInterest"] as const;

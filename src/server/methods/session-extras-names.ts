/** A session's live subagent settings and its context window's make-up (session-extras-methods.ts). */
export const SESSION_EXTRAS_METHODS = [
  "session.tools.updateSubagentSettings",
  "session.metadata.getContextAttribution",
  "session.metadata.getContextHeaviestMessages",
] as const;

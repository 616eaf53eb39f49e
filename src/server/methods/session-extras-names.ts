/**
 * A session's live subagent settings and its context window's make-up, and the server's secret values
 * (session-extras-methods.ts).
 */
export const SESSION_EXTRAS_METHODS = [
  "session.tools.updateSubagentSettings",
  "session.metadata.getContextAttribution",
  "session.metadata.getContextHeaviestMessages",
  "secrets.addFilterValues",
] as const;

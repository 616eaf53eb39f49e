/**
 * What a tool call is about when the tool gave no title (an unknown tool, arguments that did not validate):
 * the first of its common arguments that is a string. Faces differ only in which they prefer.
 */
export const TOOL_SUBJECT_KEYS = ["command", "path", "pattern", "shellId", "summary", "description"] as const;

export function toolCallSubject(args: unknown, keys: readonly string[] = TOOL_SUBJECT_KEYS): string | undefined {
  if (typeof args !== "object" || args === null) return undefined;
  const record = args as Record<string, unknown>;
  for (const key of keys) {
    const value = record[key];
    if (typeof value === "string") return value;
  }
  return undefined;
}

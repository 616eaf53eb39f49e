/**
 * A session's conversation as a short text another agent (or person) can pick up from: what the user asked,
 * what the assistant answered and what clients noted, oldest first. Built from the log alone (no model call),
 * so it is instant and costs nothing; a session with nothing said yet has an empty summary.
 */
import type { SessionEvent } from "../protocol/events/index.js";

/** Each entry is cut here: a handoff names what happened, it does not replay it. */
const ENTRY_LIMIT = 500;

function cut(text: string): string {
  const flat = text.trim();
  return flat.length > ENTRY_LIMIT ? `${flat.slice(0, ENTRY_LIMIT)}…` : flat;
}

function entry(event: SessionEvent): string | undefined {
  // Subagents' own exchanges are summed up by the answers they gave the main agent.
  if (event.agentId !== undefined) return undefined;
  switch (event.type) {
    case "user.message":
      return `User: ${cut(event.data.content)}`;
    case "assistant.message":
      return event.data.content.trim() === "" ? undefined : `Assistant: ${cut(event.data.content)}`;
    case "session.info":
    case "session.warning":
      return "infoType" in event.data && event.data.infoType === "notification"
        ? `Note: ${cut(event.data.message)}`
        : "warningType" in event.data && event.data.warningType === "notification"
          ? `Warning: ${cut(event.data.message)}`
          : undefined;
    default:
      return undefined;
  }
}

export function handoffSummary(events: readonly SessionEvent[]): string {
  return events
    .map(entry)
    .filter((line) => line !== undefined)
    .join("\n");
}

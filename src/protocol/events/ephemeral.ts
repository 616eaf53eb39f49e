/**
 * Which event types are ephemeral (streamed, never written to the log), as plain data. The event sink needs
 * only this, and importing the catalog would build every event's zod schema before the first request;
 * test/core/ephemeral-events.test.ts keeps this list equal to the catalog's flags.
 */
import type { EventType } from "./catalog.js";

const EPHEMERAL: ReadonlySet<string> = new Set<EventType>([
  "assistant.turn_retry",
  "assistant.intent",
  "assistant.reasoning_delta",
  "assistant.streaming_delta",
  "assistant.message_delta",
  "assistant.usage",
  "tool.execution_partial_result",
  "tool.execution_progress",
  "session.idle",
  "session.title_changed",
  "session.workspace_file_changed",
  "session.usage_info",
  "session.background_tasks_changed",
  "session.todos_changed",
  "session.mcp_servers_loaded",
  "session.mcp_server_status_changed",
  "permission.requested",
  "permission.completed",
  "user_input.requested",
  "user_input.completed",
  "elicitation.requested",
  "elicitation.completed",
  "external_tool.requested",
  "external_tool.completed",
  "exit_plan_mode.requested",
  "exit_plan_mode.completed",
  "command.queued",
  "command.execute",
  "command.completed",
  "session.permissions_changed",
  "session.instructions_changed",
  "pending_messages.modified",
]);

export function isEphemeralEventType(type: EventType): boolean {
  return EPHEMERAL.has(type);
}

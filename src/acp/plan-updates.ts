/**
 * The session's todo list as ACP's `plan` update. The todo store (the sql tool's database) announces
 * changes with `session.todos_changed`, which carries the whole list (the session's state holds it too).
 * Every update carries the whole list, as ACP asks.
 */
import type { PlanEntry, SessionUpdate } from "@agentclientprotocol/sdk";

export interface Todo {
  id: string;
  title: string;
  status: string;
}

function entryStatus(status: string): PlanEntry["status"] {
  const normalised = status.toLowerCase().replace(/[\s-]+/g, "_");
  if (normalised === "in_progress" || normalised === "active" || normalised === "doing") return "in_progress";
  if (normalised === "done" || normalised === "completed" || normalised === "complete") return "completed";
  return "pending";
}

export function planUpdate(todos: readonly Todo[]): SessionUpdate {
  return { sessionUpdate: "plan", entries: todos.map((todo) => ({ content: todo.title, priority: "medium", status: entryStatus(todo.status) })) };
}

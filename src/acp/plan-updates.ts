/**
 * The session's todo list as ACP's `plan` update. The todo store (the sql tool's database) announces
 * changes with `session.todos_changed` and a session exposes `todos()` (read from the database, so it may be
 * a promise). Every update carries the whole list, as ACP asks.
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

/** The todos of a session that has a todo store; undefined for one that does not (or when they cannot be read). */
export async function todosOf(session: object): Promise<Todo[] | undefined> {
  const getter = (session as { todos?: unknown }).todos;
  if (typeof getter !== "function") return undefined;
  let todos: unknown;
  try {
    // The engine's todos() reads the session's database: a promise, awaited like a plain list.
    todos = await (getter.call(session) as unknown);
  } catch {
    return undefined;
  }
  if (!Array.isArray(todos)) return undefined;
  return todos.filter((todo): todo is Todo => todo !== null && typeof todo === "object" && typeof todo.title === "string" && typeof todo.status === "string");
}

/**
 * The session's todo list as faces see it: a snapshot read from the session's own database (the `sql`
 * tool's `todos` and `todo_deps` tables), with the agent working on each todo when one is known.
 */
export type TodoStatus = "pending" | "in_progress" | "done" | "blocked";

export const TODO_STATUSES: readonly TodoStatus[] = ["pending", "in_progress", "done", "blocked"];

export interface TodoItem {
  id: string;
  title: string;
  description: string;
  status: TodoStatus;
  /** The ids of the todos this one waits for. */
  dependsOn: string[];
  /** The background agent working on it (or that worked on it), when known. */
  agentId?: string;
}

/**
 * The todo panel: the session's todo list (the sql tool's todos), one row per todo with its status glyph,
 * title and the agent working on it, above a one-line count. Shown while the list has todos; it follows the
 * list live (the app refreshes it on session.todos_changed). Long lists keep the unfinished todos in view.
 */
import { Box, Text } from "ink";
import type { TodoItem, TodoStatus } from "../../protocol/todos.js";
import type { Theme } from "../theme.js";

export interface TodoPanelProps {
  todos: readonly TodoItem[];
  theme: Theme;
  width: number;
  /** Rows for todos (the header takes one more); the rest are summed up in a last line. */
  maxRows?: number;
}

export function todoGlyph(status: TodoStatus, theme: Theme): { glyph: string; color: string | undefined } {
  switch (status) {
    case "pending":
      return { glyph: "○", color: theme.muted };
    case "in_progress":
      return { glyph: "◐", color: theme.accent };
    case "done":
      return { glyph: "✓", color: theme.success };
    case "blocked":
      return { glyph: "✗", color: theme.error };
  }
}

const LABELS: Record<TodoStatus, string> = { done: "done", in_progress: "in progress", blocked: "blocked", pending: "pending" };

function counts(todos: readonly TodoItem[]): string {
  return (["done", "in_progress", "blocked", "pending"] as const)
    .map((status) => ({ status, n: todos.filter((todo) => todo.status === status).length }))
    .filter(({ n }) => n > 0)
    .map(({ status, n }) => `${n} ${LABELS[status]}`)
    .join(" · ");
}

/** Which todos fit: unfinished ones first in list order, then the most recent finished ones, kept in list order. */
function visible(todos: readonly TodoItem[], maxRows: number): TodoItem[] {
  if (todos.length <= maxRows) return [...todos];
  const rows = Math.max(1, maxRows - 1);
  const open = todos.filter((todo) => todo.status !== "done");
  const keep = new Set(open.slice(0, rows));
  for (const todo of [...todos].reverse()) if (keep.size < rows && !keep.has(todo)) keep.add(todo);
  return todos.filter((todo) => keep.has(todo));
}

export function TodoPanel({ todos, theme, width, maxRows = 12 }: TodoPanelProps) {
  if (todos.length === 0) return null;
  const shown = visible(todos, maxRows);
  const hidden = todos.length - shown.length;
  return (
    <Box flexDirection="column" width={width}>
      <Box width={width}>
        <Text wrap="truncate-end">
          <Text color={theme.accent} bold>
            Todos
          </Text>
          <Text color={theme.muted}> · {counts(todos)}</Text>
        </Text>
      </Box>
      {shown.map((todo) => {
        const { glyph, color } = todoGlyph(todo.status, theme);
        return (
          <Box key={todo.id} width={width} paddingLeft={2}>
            <Text wrap="truncate-end">
              <Text color={color}>{glyph}</Text> <Text {...(todo.status === "done" ? { color: theme.muted } : {})}>{todo.title || todo.id}</Text>
              {todo.agentId ? <Text color={theme.muted}> · {todo.agentId}</Text> : null}
              {todo.status === "blocked" ? <Text color={theme.error}> (blocked)</Text> : null}
            </Text>
          </Box>
        );
      })}
      {hidden > 0 ? (
        <Box width={width} paddingLeft={2}>
          <Text color={theme.muted}>… {hidden} more</Text>
        </Box>
      ) : null}
    </Box>
  );
}

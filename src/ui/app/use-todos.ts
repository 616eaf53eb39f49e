/**
 * The session's todo list for the todo panel: the session's state holds it (the engine announces each change
 * with session.todos_changed, and links a todo to the background agent started for it). Read when the
 * session opens or is switched, and again after any event that changed it.
 */
import { useEffect, useState } from "react";
import type { TodoItem } from "../../protocol/todos.js";
import type { SessionHost } from "../session-host.js";

export function useTodos(host: SessionHost, starting: boolean): readonly TodoItem[] {
  const [todos, setTodos] = useState<readonly TodoItem[]>([]);
  const [generation, setGeneration] = useState(0);
  useEffect(() => host.onSwitch(() => setGeneration((value) => value + 1)), [host]);
  useEffect(() => {
    if (starting || !host.ready) return;
    const session = host.session;
    setTodos(session.state.todos);
    // The state's list is a new array only when it changed: one render per change.
    return session.subscribe(() => setTodos(session.state.todos));
  }, [host, starting, generation]);
  return todos;
}

/**
 * The session's todo list for the todo panel: read through SessionView.todos() when the session opens or is
 * switched, and again whenever the engine says the list changed (session.todos_changed) or an agent started
 * or ended (which links a todo to its agent). Reads never overlap: a change during a read asks for one more.
 */
import { useEffect, useState } from "react";
import type { TodoItem } from "../../protocol/todos.js";
import type { SessionHost } from "../session-host.js";

const REFRESH_ON = new Set(["session.todos_changed", "subagent.started", "session.background_tasks_changed"]);

export function useTodos(host: SessionHost, starting: boolean): readonly TodoItem[] {
  const [todos, setTodos] = useState<readonly TodoItem[]>([]);
  const [generation, setGeneration] = useState(0);
  useEffect(() => host.onSwitch(() => setGeneration((value) => value + 1)), [host]);
  useEffect(() => {
    if (starting || !host.ready) return;
    const session = host.session;
    let stopped = false;
    let reading = false;
    let again = false;
    const read = (): void => {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      session
        .todos()
        .then((list) => {
          if (!stopped) setTodos((current) => (same(current, list) ? current : list));
        })
        .catch(() => undefined)
        .finally(() => {
          reading = false;
          if (again && !stopped) {
            again = false;
            read();
          }
        });
    };
    const unsubscribe = session.subscribe((event) => {
      if (REFRESH_ON.has(event.type)) read();
    });
    read();
    return () => {
      stopped = true;
      unsubscribe();
    };
  }, [host, starting, generation]);
  return todos;
}

function same(a: readonly TodoItem[], b: readonly TodoItem[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

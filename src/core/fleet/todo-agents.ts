/**
 * Which agent works on which todo. A todo's `agent_id` column says it when the model filled it in; otherwise
 * the fleet prompt's convention does: the agent for a todo is started with the todo's id as its name, so its
 * agent id is that name made into an id plus "-<n>" (the latest such agent wins).
 */
import type { TodoItem } from "../../protocol/todos.js";
import { agentIdBase } from "../tasks/agent-id.js";

export function linkTodoAgents(todos: readonly TodoItem[], agentIds: readonly string[]): TodoItem[] {
  const latest = new Map<string, { id: string; n: number }>();
  for (const id of agentIds) {
    const match = /^(.*)-(\d+)$/.exec(id);
    if (!match) continue;
    const [, base = "", n = "0"] = match;
    const known = latest.get(base);
    if (!known || Number(n) > known.n) latest.set(base, { id, n: Number(n) });
  }
  return todos.map((todo) => {
    if (todo.agentId) return todo;
    const agent = latest.get(agentIdBase(todo.id));
    return agent ? { ...todo, agentId: agent.id } : todo;
  });
}

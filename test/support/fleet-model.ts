/**
 * A scripted "model" that runs a fleet the way the fleet prompt asks, for the engine, end-to-end, TUI and
 * tmux tests. It reads the session's todo database (the file the sql tool keeps, so it works across
 * processes) and answers:
 * - the main agent: plan the todos with one sql call; dispatch every ready todo to a background agent (all
 *   in one response, named after the todo); wait for a working agent with read_agent; when every todo is
 *   done, task_complete if the mode offers it (autopilot), else a plain answer;
 * - each background agent (told apart by the `[fleet-todo <id>]` marker in its prompt): mark its todo
 *   in_progress, then done, then answer. Agents whose todos have no dependencies wait for each other before
 *   marking done, so they provably run at the same time.
 */
import { existsSync } from "node:fs";
import type { TodoItem } from "../../src/protocol/todos.js";
import { SessionDatabase } from "../../src/tools/sql/index.js";
import { text, toolCall, toolCalls, type CompletionRequest, type Responder, type ScriptedResponse } from "./scripted-server.js";

export interface FleetTodo {
  id: string;
  title: string;
  dependsOn?: string[];
}

/** Three todos: c waits for a and b. */
export const THREE_TODOS: FleetTodo[] = [
  { id: "part-a", title: "Write part A" },
  { id: "part-b", title: "Write part B" },
  { id: "join-ab", title: "Join A and B", dependsOn: ["part-a", "part-b"] },
];

export interface FleetModel {
  responder: Responder;
  /** The todo list as each agent saw it on its first request, by todo id. */
  seenAtStart: Map<string, TodoItem[]>;
  /** Whether the agents without dependencies were all running at the same moment. */
  readonly parallel: boolean;
}

const quote = (value: string) => `'${value.replace(/'/g, "''")}'`;

async function readTodos(file: string | undefined): Promise<TodoItem[]> {
  if (!file || !existsSync(file)) return [];
  const database = new SessionDatabase(file);
  try {
    return await database.todos();
  } finally {
    database.close();
  }
}

function firstUserText(request: CompletionRequest): string {
  const message = request.body.messages.find((entry) => entry.role === "user");
  return typeof message?.content === "string" ? message.content : JSON.stringify(message?.content ?? "");
}

export interface FleetModelOptions {
  /** The session's todo database (session.db in its folder), once the session exists. */
  databaseFile(): string | undefined;
  todos?: FleetTodo[];
  /** Agents without dependencies mark their todos done only once this resolves (a test holds them in progress). */
  holdDone?: Promise<void>;
}

export function fleetModel(options: FleetModelOptions): FleetModel {
  const plan = options.todos ?? THREE_TODOS;
  const roots = plan.filter((todo) => (todo.dependsOn ?? []).length === 0).map((todo) => todo.id);
  const dispatched = new Set<string>();
  const begun = new Set<string>();
  const seenAtStart = new Map<string, TodoItem[]>();
  let completed = false;
  let parallel = false;
  let allRootsBegun: () => void = () => undefined;
  const rootsBegun = new Promise<void>((resolve) => (allRootsBegun = resolve));

  const main = async (request: CompletionRequest): Promise<ScriptedResponse> => {
    if (completed) return text("The fleet has finished.");
    const todos = await readTodos(options.databaseFile());
    if (todos.length === 0) {
      const rows = plan.map((todo) => `(${quote(todo.id)}, ${quote(todo.title)}, ${quote(`Do: ${todo.title}`)})`).join(", ");
      const deps = plan.flatMap((todo) => (todo.dependsOn ?? []).map((on) => `(${quote(todo.id)}, ${quote(on)})`));
      const query = `INSERT INTO todos (id, title, description) VALUES ${rows};${deps.length > 0 ? ` INSERT INTO todo_deps (todo_id, depends_on) VALUES ${deps.join(", ")};` : ""}`;
      return toolCall("sql", { description: "Plan the todos", query }, { text: "Planning the work as todos." });
    }
    const status = new Map(todos.map((todo) => [todo.id, todo.status]));
    const ready = todos.filter((todo) => todo.status === "pending" && !dispatched.has(todo.id) && todo.dependsOn.every((on) => status.get(on) === "done"));
    if (ready.length > 0) {
      for (const todo of ready) dispatched.add(todo.id);
      return toolCalls(
        ready.map((todo) => ({
          name: "task",
          arguments: {
            description: `Do ${todo.id}`,
            prompt: `[fleet-todo ${todo.id}] ${todo.title}. Mark the todo in_progress, then done, with the sql tool.`,
            agent_type: "general-purpose",
            mode: "background",
            name: todo.id,
          },
        })),
      );
    }
    if (todos.every((todo) => todo.status === "done")) {
      completed = true;
      const summary = `All ${todos.length} todos are done.`;
      const offered = ((request.body.tools ?? []) as { function: { name: string } }[]).some((tool) => tool.function.name === "task_complete");
      return offered ? toolCall("task_complete", { summary }) : text(summary);
    }
    const working = todos.find((todo) => dispatched.has(todo.id) && todo.status !== "done");
    if (working) return toolCall("read_agent", { agent_id: `${working.id}-1`, timeout_seconds: 30 });
    return text("Nothing to do.");
  };

  const agent = async (id: string, request: CompletionRequest): Promise<ScriptedResponse> => {
    const step = request.body.messages.filter((message) => message.role === "tool").length;
    const mark = (state: string) =>
      toolCall("sql", { description: `Mark ${id} ${state}`, query: `UPDATE todos SET status = '${state}' WHERE id = ${quote(id)}` });
    if (step === 0) {
      seenAtStart.set(id, await readTodos(options.databaseFile()));
      begun.add(id);
      if (roots.every((root) => begun.has(root))) allRootsBegun();
      return mark("in_progress");
    }
    if (step === 1) {
      if (roots.includes(id)) {
        // A guard, not a clock: agents run one after the other would never all begin, and the test says so.
        const guard = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000).unref());
        parallel = (await Promise.race([rootsBegun.then(() => true), guard])) || parallel;
      }
      if (options.holdDone && roots.includes(id)) await options.holdDone;
      return mark("done");
    }
    return text(`Todo ${id} is done.`);
  };

  return {
    responder: (request) => {
      const marker = /\[fleet-todo ([^\]\s]+)\]/.exec(firstUserText(request));
      return marker ? agent(marker[1] as string, request) : main(request);
    },
    seenAtStart,
    get parallel() {
      return parallel;
    },
  };
}

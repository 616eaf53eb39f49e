/**
 * Plan mode records the plan's todos in the session's todo tables (Copilot: "The todos also go into the SQL
 * todos/todo_deps tables"): the mode's notices ask for it, and plan mode's ruleset lets the sql tool write the
 * session database without asking while other writes stay refused.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../support/engine-harness.js";
import { text, toolCall } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const systemText = (h: Harness, request: number): string =>
  String(h.server.completionRequests[request]?.body.messages.find((message) => message.role === "system")?.content ?? "");
const lastUserText = (h: Harness, request: number): string =>
  String(h.server.completionRequests[request]?.body.messages.filter((message) => message.role === "user").at(-1)?.content ?? "");
const toolNames = (h: Harness, request: number) =>
  ((h.server.completionRequests[request]?.body.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);

describe("plan mode and the todo list", () => {
  it("asks the model to record the plan's todos with the sql tool (system prompt and switch notice)", async () => {
    harness = await startHarness({ mode: "plan" });
    harness.server.enqueue(text("a"), text("b"));
    await harness.session.send("plan it");
    expect(systemText(harness, 0)).toMatch(/record the plan's todos .* with the sql tool/);
    expect(systemText(harness, 0)).toContain("todo_deps");
    harness.session.setMode("interactive");
    harness.session.setMode("plan");
    await harness.session.send("plan again");
    expect(lastUserText(harness, 1)).toMatch(/todos\/todo_deps tables with the sql tool/);
  });

  it("lets the sql tool write the todo tables in plan mode without asking, while a write to the project is refused", async () => {
    harness = await startHarness({ mode: "plan" });
    harness.server.enqueue(
      toolCall("sql", {
        description: "record plan todos",
        query:
          "INSERT INTO todos (id, title, description) VALUES ('add-greet', 'Add greet.ts', 'export greet()'), ('test-greet', 'Test greet', 'vitest'); INSERT INTO todo_deps VALUES ('test-greet', 'add-greet')",
      }),
      toolCall("create", { path: path.join(harness.cwd, "greet.ts"), file_text: "export {};\n" }),
      text("Planned."),
    );
    await harness.session.send("plan a greeting");
    expect(toolNames(harness, 0)).toContain("sql");
    const [sql, create] = harness.ofType("tool.execution_complete").map((event) => event.data);
    expect(sql?.success).toBe(true);
    expect(create?.success).toBe(false);
    expect(existsSync(path.join(harness.cwd, "greet.ts"))).toBe(false);
    expect(harness.ofType("permission.requested")).toHaveLength(0);
    const todos = await harness.session.engine.todos();
    expect(todos.map((todo) => [todo.id, todo.status])).toEqual([
      ["add-greet", "pending"],
      ["test-greet", "pending"],
    ]);
  });
});

/**
 * The session database and the `sql` tool: the todo tables, readable results, errors as tool errors,
 * persistence across a reopen (atomically, after each change), and sql.js loading only on the first call.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createSqlTool, SessionDatabase, sqlJsLoaded } from "../../src/tools/sql/index.js";
import { makeToolContext, runTool, runToolError, type TestToolContext } from "../support/tool-context.js";

let context: TestToolContext;
afterEach(() => context?.cleanup());

function setup() {
  context = makeToolContext();
  const file = path.join(context.sessionDir, "session.db");
  const database = new SessionDatabase(file);
  return { file, database, tool: createSqlTool(database), ctx: context.ctx };
}

describe("sql tool", () => {
  // First in this file: the module is fresh, so nothing has loaded sql.js yet.
  it("loads sql.js on the first call, not when the tool module is imported or the session asks for its todos", async () => {
    const { database, tool, ctx } = setup();
    expect(sqlJsLoaded()).toBe(false);
    expect(await database.todos()).toEqual([]);
    expect(sqlJsLoaded()).toBe(false);
    await runTool(tool, { description: "list todos", query: "SELECT * FROM todos" }, ctx);
    expect(sqlJsLoaded()).toBe(true);
  });

  it("words each kind of write as Copilot does: one statement alone, several numbered under their keyword", async () => {
    const { tool, ctx } = setup();
    const run = async (query: string) => (await runTool(tool, { description: "q", query }, ctx)).content;
    expect(await run("CREATE TABLE items (id TEXT, n INTEGER)")).toBe("Schema operation completed successfully.");
    expect(await run("INSERT INTO items VALUES ('a', 1), ('b', 2)")).toBe("2 row(s) inserted. Last inserted row ID: 2.");
    expect(await run("UPDATE items SET n = 3")).toBe("2 row(s) updated.");
    expect(await run("DELETE FROM items WHERE id = 'a'; SELECT id FROM items")).toBe(
      ["Executed 2 statement(s):", "1. DELETE\n   1 row(s) deleted.", "2. SELECT\n   | id |\n   | --- |\n   | b |\n   (1 row)"].join("\n\n"),
    );
  });

  it("has the todo tables and answers queries as a table", async () => {
    const { tool, ctx } = setup();
    const inserted = await runTool(
      tool,
      {
        description: "add todos",
        query:
          "INSERT INTO todos (id, title, description) VALUES ('a', 'Write A', 'the a part'), ('b', 'Write B', ''); INSERT INTO todo_deps VALUES ('b', 'a')",
      },
      ctx,
    );
    expect(inserted.content).toBe(
      "Executed 2 statement(s):\n\n1. INSERT\n   2 row(s) inserted. Last inserted row ID: 2.\n\n2. INSERT\n   1 row(s) inserted. Last inserted row ID: 1.",
    );
    const listed = await runTool(tool, { description: "list", query: "SELECT id, title, status FROM todos ORDER BY id" }, ctx);
    expect(listed.content).toBe(
      ["| id | title | status |", "| --- | --- | --- |", "| a | Write A | pending |", "| b | Write B | pending |", "(2 rows)"].join("\n"),
    );
    const empty = await runTool(tool, { description: "none", query: "SELECT id FROM todos WHERE status = 'done'" }, ctx);
    expect(empty.content).toBe("(no rows; columns: id)");
  });

  it("reports a bad statement or a bad status as an error result", async () => {
    const { tool, ctx } = setup();
    const syntax = await runToolError(tool, { description: "oops", query: "SELEC 1" }, ctx);
    expect(syntax.message).toMatch(/^SQL error: .*syntax error/);
    const status = await runToolError(tool, { description: "bad status", query: "INSERT INTO todos (id, title, status) VALUES ('x', 'X', 'finished')" }, ctx);
    expect(status.message).toContain("CHECK constraint failed");
    const orphan = await runToolError(tool, { description: "bad dep", query: "INSERT INTO todo_deps VALUES ('x', 'y')" }, ctx);
    expect(orphan.message).toContain("FOREIGN KEY constraint failed");
  });

  it("keeps the database in the session folder: written after each change, read back by a new instance", async () => {
    const { file, database, tool, ctx } = setup();
    const changes: number[] = [];
    database.onChange(() => changes.push(1));
    await runTool(tool, { description: "read", query: "SELECT count(*) FROM todos" }, ctx);
    expect(existsSync(file)).toBe(false);
    expect(changes).toEqual([]);
    await runTool(
      tool,
      { description: "add", query: "INSERT INTO todos (id, title) VALUES ('one', 'One'), ('two', 'Two'); INSERT INTO todo_deps VALUES ('two', 'one')" },
      ctx,
    );
    await runTool(tool, { description: "start", query: "UPDATE todos SET status = 'in_progress', agent_id = 'one-1' WHERE id = 'one'" }, ctx);
    expect(changes).toEqual([1, 1]);
    expect(existsSync(file)).toBe(true);
    expect(readdirSync(path.dirname(file)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    database.close();

    const reopened = new SessionDatabase(file);
    expect(await reopened.todos()).toEqual([
      { id: "one", title: "One", description: "", status: "in_progress", dependsOn: [], agentId: "one-1" },
      { id: "two", title: "Two", description: "", status: "pending", dependsOn: ["one"] },
    ]);
    const more = createSqlTool(reopened);
    const result = await runTool(more, { description: "ready", query: "SELECT id FROM todos WHERE status = 'pending'" }, ctx);
    expect(result.content).toContain("| two |");
    reopened.close();
  });

  it("asks no permission: it only touches the session's own database", () => {
    const { tool } = setup();
    expect(tool.permission({ description: "x", query: "DROP TABLE todos" }, { cwd: context.cwd, toolCallId: "c" })).toBeNull();
  });
});

describe("the todo snapshot", () => {
  it("is empty, not an error, when the model has dropped the todo tables", async () => {
    const { database, tool, ctx } = setup();
    await runTool(tool, { description: "drop", query: "INSERT INTO todos (id, title) VALUES ('a', 'A'); DROP TABLE todo_deps; DROP TABLE todos" }, ctx);
    expect(await database.todos()).toEqual([]);
    database.close();
  });
});

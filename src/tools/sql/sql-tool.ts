/**
 * The `sql` tool (Copilot CLI's name and parameters): SQL over the session's own SQLite database, whose
 * built-in `todos` and `todo_deps` tables are the session's todo list. Importing this module loads nothing
 * heavy; sql.js and its wasm load on the first call (session-database.ts).
 */
import { z } from "zod";
import { type AnyTool, defineTool, ToolError } from "../define-tool.js";
import { lazyParameters } from "../lazy-parameters.js";
import { formatResults } from "./format-results.js";
import type { SessionDatabase } from "./session-database.js";

const description = [
  "Run SQL (SQLite) against this session's own database. It is private to this session and shared by you and the agents you start.",
  "Built-in tables, the session's todo list:",
  "- todos(id TEXT PRIMARY KEY, title TEXT NOT NULL, description TEXT, status TEXT DEFAULT 'pending' CHECK (status IN ('pending','in_progress','done','blocked')), agent_id TEXT, created_at, updated_at)",
  "- todo_deps(todo_id TEXT, depends_on TEXT, PRIMARY KEY (todo_id, depends_on)): todo_id waits for depends_on to be done. Insert the todos before the todo_deps rows that name them.",
  "Use short descriptive ids ('parse-config', 'add-tests'). Update a todo's status as work progresses: in_progress when starting, done when finished, blocked (with the reason in description) when it cannot go on.",
  "Ready todos (pending, every dependency done): SELECT t.* FROM todos t WHERE t.status = 'pending' AND NOT EXISTS (SELECT 1 FROM todo_deps d JOIN todos dep ON dep.id = d.depends_on WHERE d.todo_id = t.id AND dep.status != 'done')",
  "You may create other tables for your own notes. Several statements may be separated by semicolons; results come back as tables.",
].join("\n");

export const sqlParameters = lazyParameters(() =>
  z.object({
    description: z.string().describe("What the query does, in 2-5 words (shown to the user)"),
    query: z.string().describe("The SQL to run; several statements may be separated by semicolons"),
  }),
);

export function createSqlTool(database: SessionDatabase): AnyTool {
  return defineTool({
    name: "sql",
    description,
    parameters: sqlParameters,
    kind: "control",
    readOnly: false,
    title: (args) => args.description,
    // No question to ask: the only thing this tool can read or change is the session's own database file in
    // the session folder (like plan mode's plan.md), never the user's files, commands or the network.
    permission: () => null,
    async execute({ query }) {
      try {
        return { content: formatResults(await database.execute(query)) };
      } catch (error) {
        throw new ToolError(`SQL error: ${(error as Error).message}`, "sql_error");
      }
    },
  }) as unknown as AnyTool;
}

/**
 * The session's own SQLite database (sql.js, in memory), kept as a file in the session folder: opened from
 * that file (or created with the todo tables) on first use, and written back, atomically, after every
 * statement that changed something. The main agent and every subagent of the session share one instance,
 * so they see one todo list. sql.js runs each statement synchronously, so calls from agents running in
 * parallel never interleave inside a statement.
 */
import { existsSync, readFileSync } from "node:fs";
import { replacePrivateFile } from "../../util/private-files.js";
import type { Database, SqlValue } from "sql.js";
import { TODO_STATUSES, type TodoItem, type TodoStatus } from "../../protocol/todos.js";
import { loadSqlJs } from "./sql-runtime.js";

/** The built-in tables: Copilot CLI's `todos` and `todo_deps`, plus `agent_id` to show who works on what. */
export const TODO_SCHEMA = `
CREATE TABLE IF NOT EXISTS todos (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN (${TODO_STATUSES.map((status) => `'${status}'`).join(", ")})),
  agent_id TEXT,
  created_at TEXT NOT NULL DEFAULT (datetime('now')),
  updated_at TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS todo_deps (
  todo_id TEXT NOT NULL REFERENCES todos(id) ON DELETE CASCADE,
  depends_on TEXT NOT NULL REFERENCES todos(id) ON DELETE CASCADE,
  PRIMARY KEY (todo_id, depends_on)
);
CREATE TRIGGER IF NOT EXISTS todos_touch AFTER UPDATE ON todos FOR EACH ROW WHEN NEW.updated_at = OLD.updated_at
BEGIN UPDATE todos SET updated_at = datetime('now') WHERE id = NEW.id; END;
`;

/** What one statement gave: rows (a query) or the number of rows it changed. */
/** `keyword`: the statement's first word, upper-case (INSERT, CREATE…); `lastInsertRowId` after an INSERT. */
export type StatementResult =
  { kind: "rows"; keyword: string; columns: string[]; rows: SqlValue[][] } | { kind: "changes"; keyword: string; changes: number; lastInsertRowId?: number };

export class SessionDatabase {
  private opening: Promise<Database> | undefined;
  private readonly listeners = new Set<(todos: TodoItem[]) => void>();

  constructor(readonly file: string) {}

  /** Called with the todo list after every statement that changed the database (the session announces todos_changed). */
  onChange(listener: (todos: TodoItem[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Runs every statement of `query` in order; stops at the first error (what ran before it stays). */
  async execute(query: string): Promise<StatementResult[]> {
    const db = await this.open();
    const results: StatementResult[] = [];
    let changed = false;
    try {
      for (const statement of db.iterateStatements(query)) {
        const before = stamp(db);
        try {
          const columns = statement.getColumnNames();
          const rows: SqlValue[][] = [];
          while (statement.step()) rows.push(statement.get());
          const keyword = (/^\s*(\w+)/.exec(statement.getSQL())?.[1] ?? "").toUpperCase();
          if (columns.length > 0) results.push({ kind: "rows", keyword, columns, rows });
          else if (keyword === "INSERT")
            results.push({
              kind: "changes",
              keyword,
              changes: db.getRowsModified(),
              lastInsertRowId: Number(db.exec("SELECT last_insert_rowid()")[0]?.values[0]?.[0] ?? 0),
            });
          else results.push({ kind: "changes", keyword, changes: db.getRowsModified() });
        } finally {
          statement.free();
        }
        if (stamp(db) !== before) {
          changed = true;
          this.persist(db);
        }
      }
    } finally {
      if (changed && this.listeners.size > 0) {
        const todos = readTodos(db);
        for (const listener of this.listeners) listener(todos);
      }
    }
    return results;
  }

  /**
   * The todo list, for the faces. A session that never used the tool has no file: the answer is empty and
   * sql.js stays unloaded; a resumed session's file is read on the first call.
   */
  async todos(): Promise<TodoItem[]> {
    if (!this.opening && !existsSync(this.file)) return [];
    return readTodos(await this.open());
  }

  /** Frees the in-memory copy (the file stays). */
  close(): void {
    const opening = this.opening;
    this.opening = undefined;
    void opening?.then((db) => db.close()).catch(() => undefined);
  }

  private open(): Promise<Database> {
    this.opening ??= (async () => {
      const SQL = await loadSqlJs();
      const db = existsSync(this.file) ? new SQL.Database(readFileSync(this.file)) : new SQL.Database();
      db.run("PRAGMA foreign_keys = ON");
      db.exec(TODO_SCHEMA);
      return db;
    })();
    this.opening.catch(() => (this.opening = undefined));
    return this.opening;
  }

  /** Written to a temporary file and renamed over the old one: a crash leaves the old file or the new one. */
  private persist(db: Database): void {
    replacePrivateFile(this.file, db.export());
  }
}

/** The todo list as the tables hold it now. */
function readTodos(db: Database): TodoItem[] {
  const deps = new Map<string, string[]>();
  let rows: SqlValue[][];
  try {
    for (const [todoId, dependsOn] of db.exec("SELECT todo_id, depends_on FROM todo_deps ORDER BY rowid")[0]?.values ?? []) {
      deps.set(String(todoId), [...(deps.get(String(todoId)) ?? []), String(dependsOn)]);
    }
    rows = db.exec("SELECT id, title, description, status, agent_id FROM todos ORDER BY created_at, rowid")[0]?.values ?? [];
  } catch {
    // The model dropped or reshaped the tables: there is no todo list to show.
    return [];
  }
  return rows.map(([id, title, description, status, agentId]) => ({
    id: String(id),
    title: String(title ?? ""),
    description: String(description ?? ""),
    status: (TODO_STATUSES as readonly unknown[]).includes(status) ? (status as TodoStatus) : "pending",
    dependsOn: deps.get(String(id)) ?? [],
    ...(agentId !== null && agentId !== undefined && agentId !== "" ? { agentId: String(agentId) } : {}),
  }));
}

/** Changes and schema version together, so that a written row or a created or dropped table moves it. */
function stamp(db: Database): string {
  const [changes, version] = db.exec("SELECT total_changes(); PRAGMA schema_version");
  return `${changes?.values[0]?.[0]}:${version?.values[0]?.[0]}`;
}

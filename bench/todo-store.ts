/**
 * The todo store (sql.js, SQLite in WebAssembly) must not cost start-up: a `-p` run that never calls the sql
 * tool is run under the module tracker and must not load sql.js or its wasm. Also measured: what the first
 * sql call costs (loading the runtime and the wasm, creating the tables, one insert) and a later call.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SessionDatabase } from "../src/tools/sql/index.js";
import { trackedHeadlessRun, type TrackedRunOptions } from "./module-check.js";
import { ms, type Row } from "./report.js";

export type TodoStoreBenchOptions = TrackedRunOptions;

async function startupLoadsSqlJs(options: TodoStoreBenchOptions): Promise<Row> {
  const lines = await trackedHeadlessRun(options, "agent -p (module tracker, no sql call)");
  const seen = lines.some((line) => line.includes("/dist/"));
  const loaded = lines.filter((line) => /sql-wasm|node_modules\/sql\.js\//.test(line));
  return {
    name: "start-up loads sql.js (headless -p, no sql call)",
    agent: seen ? (loaded.length > 0 ? "yes" : "no") : "unknown",
    baseline: "—",
    ratio: undefined,
    target: "no",
    pass: seen ? loaded.length === 0 : undefined,
    data: { loaded, trackerSawDist: seen },
  };
}

async function firstCall(): Promise<Row> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "bench-todo-db-"));
  try {
    const database = new SessionDatabase(path.join(scratch, "session.db"));
    const started = performance.now();
    await database.execute("INSERT INTO todos (id, title) VALUES ('a', 'A')");
    const first = performance.now() - started;
    const again = performance.now();
    await database.execute("UPDATE todos SET status = 'done' WHERE id = 'a'");
    const later = performance.now() - again;
    database.close();
    return {
      name: "first sql call (load sql.js + wasm, create tables, insert, write) / a later call",
      agent: ms(first),
      baseline: ms(later),
      ratio: undefined,
      target: "—",
      pass: undefined,
      data: { firstCallMs: first, laterCallMs: later },
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export async function benchTodoStore(options: TodoStoreBenchOptions): Promise<Row[]> {
  return [await startupLoadsSqlJs(options), await firstCall()];
}

/**
 * The todo store (sql.js, SQLite in WebAssembly) must not cost start-up: a `-p` run that never calls the sql
 * tool is run under the module tracker and must not load sql.js or its wasm. Also measured: what the first
 * sql call costs (loading the runtime and the wasm, creating the tables, one insert) and a later call.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { SessionDatabase } from "../src/tools/sql/index.js";
import { runOnce, validate, type BenchCommand } from "./measure.js";
import { ms, type Row } from "./report.js";
import { FINAL_TEXT, TOOL_PROMPT } from "./scenario.js";

const TRACKER = pathToFileURL(fileURLToPath(new URL("./module-tracker.mjs", import.meta.url))).href;

export interface TodoStoreBenchOptions {
  agent: string;
  cwd: string;
  freshHome(): string;
  env(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  providerEnv: NodeJS.ProcessEnv;
}

async function startupLoadsSqlJs(options: TodoStoreBenchOptions): Promise<Row> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "bench-todo-"));
  const log = path.join(scratch, "modules.log");
  try {
    const command: BenchCommand = {
      label: "agent -p (module tracker, no sql call)",
      args: [options.agent, "-p", TOOL_PROMPT],
      cwd: options.cwd,
      env: () => options.env({ ...options.providerEnv, AGENT_HOME: options.freshHome() }),
      check: (result) => (result.stdout.includes(FINAL_TEXT) ? undefined : `stdout lacks "${FINAL_TEXT}"`),
    };
    const result = await runOnce(command, { extraArgs: ["--import", TRACKER], extraEnv: { BENCH_MODULE_LOG: log } });
    validate(command, result);
    const lines = readFileSync(log, "utf8").split("\n");
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
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
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

/**
 * sql.js (SQLite compiled to WebAssembly: no native build, works on Node 20), loaded once, on the first
 * `sql` call: start-up never pays for the 700 KB module. The built program carries its own copy of the
 * runtime and the wasm (scripts/build.mjs copies them to dist/sql/ and defines AGENT_SQL_JS_DIR); run from
 * source (tests, tsx), the package itself is used. The same pattern as the shell parser's tree-sitter.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { InitSqlJsStatic, SqlJsStatic } from "sql.js";

declare const AGENT_SQL_JS_DIR: string | undefined;

function locate(): { runtime: string; wasm: string } {
  if (typeof AGENT_SQL_JS_DIR === "string") {
    const dir = new URL(AGENT_SQL_JS_DIR, import.meta.url);
    return { runtime: fileURLToPath(new URL("sql-wasm.cjs", dir)), wasm: fileURLToPath(new URL("sql-wasm.wasm", dir)) };
  }
  const load = createRequire(import.meta.url);
  return { runtime: load.resolve("sql.js/dist/sql-wasm.js"), wasm: load.resolve("sql.js/dist/sql-wasm.wasm") };
}

let loading: Promise<SqlJsStatic> | undefined;
let loaded = false;

/** Whether sql.js has been loaded in this process (start-up must leave it unloaded). */
export function sqlJsLoaded(): boolean {
  return loaded;
}

export function loadSqlJs(): Promise<SqlJsStatic> {
  loading ??= (async () => {
    const { runtime, wasm } = locate();
    const init = createRequire(import.meta.url)(runtime) as InitSqlJsStatic;
    // The wasm is handed over as bytes, so the runtime never has to find a file next to itself.
    const wasmBinary = readFileSync(wasm);
    const sql = await init({ wasmBinary: wasmBinary.buffer.slice(wasmBinary.byteOffset, wasmBinary.byteOffset + wasmBinary.byteLength) });
    loaded = true;
    return sql;
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}

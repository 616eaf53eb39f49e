// Module tracker for the bench: `node --import <this file> bin/agent.js …` with BENCH_MODULE_LOG=<file>.
// Registers loader hooks (module-tracker-hooks.mjs) that append the URL of every ES module loaded to the
// log file, and at exit appends every CommonJS module in require's cache. Lines: "esm <url>" / "cjs <path>".
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";

const log = process.env.BENCH_MODULE_LOG;
if (log) {
  register("./module-tracker-hooks.mjs", import.meta.url, { data: { log } });
  const require = createRequire(import.meta.url);
  process.on("exit", () => {
    const lines = Object.keys(require.cache).map((file) => `cjs ${file}\n`);
    try {
      appendFileSync(log, lines.join(""));
    } catch {
      // measurement only
    }
  });
}

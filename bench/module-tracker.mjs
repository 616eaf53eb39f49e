// Module tracker for the bench: `node --import <this file> bin/agent.js …` with BENCH_MODULE_LOG=<file>.
// Registers loader hooks (module-tracker-hooks.mjs) that append the URL of every ES module loaded to the
// log file, and at exit appends every CommonJS module in require's cache (and each file run as a vm.Script).
// Lines: "esm <url>" / "cjs <path>".
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import vm from "node:vm";

const log = process.env.BENCH_MODULE_LOG;
if (log) {
  register("./module-tracker-hooks.mjs", import.meta.url, { data: { log } });
  // The build's vendor bundles (dist/vendor*.cjs) are run through vm.Script with a code cache, not loaded as
  // modules: log each script compiled from a file as a CommonJS module, so it is counted like one.
  const Script = vm.Script;
  vm.Script = function TrackedScript(code, options) {
    const filename = typeof options === "string" ? options : options?.filename;
    if (typeof filename === "string" && filename.startsWith("/")) appendFileSync(log, `cjs ${filename}\n`);
    return new Script(code, options);
  };
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

/**
 * bench/tui.ts alone: `node scripts/build.mjs && npx tsx bench/tui-run.ts`. Env: BENCH_RUNS (default 7),
 * BENCH_WARMUPS (default 1), BENCH_TUI_CPU_RUNS (default 5), BENCH_TUI_KEYS (default 30), BENCH_AGENT (another
 * build's bin/agent.js, to compare two builds in the same machine state). Prints the table, then the rows
 * (with their data) as JSON.
 */
import { fileURLToPath } from "node:url";
import { formatTable } from "./report.js";
import { standaloneEnv } from "./pty.js";
import { createWorkspace } from "./scenario.js";
import { benchTui } from "./tui.js";

const envInt = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value >= 0 ? value : fallback;
};

const ws = createWorkspace();
try {
  const { rows } = await benchTui({
    agent: process.env["BENCH_AGENT"] ?? fileURLToPath(new URL("../bin/agent.js", import.meta.url)),
    cwd: ws.cwd,
    root: ws.root,
    env: standaloneEnv,
    runs: Math.max(1, envInt("BENCH_RUNS", 7)),
    warmups: envInt("BENCH_WARMUPS", 1),
    cpuRuns: Math.max(1, envInt("BENCH_TUI_CPU_RUNS", 5)),
    keys: Math.max(1, envInt("BENCH_TUI_KEYS", 30)),
  });
  console.log(formatTable(rows));
  console.log(JSON.stringify(rows, null, 1));
} finally {
  ws.cleanup();
}

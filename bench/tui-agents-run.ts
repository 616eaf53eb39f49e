/**
 * bench/tui-agents.ts alone: `node scripts/build.mjs && npx tsx bench/tui-agents-run.ts`. Env:
 * BENCH_TUI_CPU_RUNS (default 5), BENCH_TUI_KEYS (default 30), BENCH_AGENT (another build's bin/agent.js, to
 * compare two builds in the same machine state), BENCH_TUI_START_ONLY=1 (only the echo while the ten start, in
 * BENCH_TUI_START_ROUNDS fresh TUIs, default 5; the full bench runs 25). Prints the rows (with their data) as JSON.
 */
import { fileURLToPath } from "node:url";
import { standaloneEnv } from "./pty.js";
import { createWorkspace } from "./scenario.js";
import { benchBackgroundAgents } from "./tui-agents.js";

const envInt = (name: string, fallback: number) => {
  const value = Number(process.env[name]);
  return Number.isInteger(value) && value > 0 ? value : fallback;
};

const ws = createWorkspace();
try {
  const rows = await benchBackgroundAgents({
    agent: process.env["BENCH_AGENT"] ?? fileURLToPath(new URL("../bin/agent.js", import.meta.url)),
    cwd: ws.cwd,
    root: ws.root,
    env: standaloneEnv,
    cpuRuns: envInt("BENCH_TUI_CPU_RUNS", 5),
    keys: envInt("BENCH_TUI_KEYS", 30),
    ...(process.env["BENCH_TUI_START_ONLY"] === "1" ? { startOnly: { rounds: envInt("BENCH_TUI_START_ROUNDS", 5) } } : {}),
  });
  console.log(JSON.stringify(rows, null, 1));
} finally {
  ws.cleanup();
}

/**
 * Just the bench's two-turn `-p` row: this checkout's agent against the `openai` script (built-in fetch),
 * interleaved, medians over BENCH_RUNS runs after BENCH_WARMUPS warm-ups. Other builds given as arguments
 * (paths to their bin/agent.js) join the same interleaving, so a change can be compared with an older
 * commit on the same machine at the same moment:
 *
 *   node scripts/build.mjs && npx tsx bench/two-turn.ts [/tmp/old/bin/agent.js …]
 */
import { fileURLToPath } from "node:url";
import { timeInterleaved, type BenchCommand } from "./measure.js";
import { benchRunEnv, createWorkspace, FINAL_TEXT, startBenchServer, TOOL_PROMPT } from "./scenario.js";

const AGENT = fileURLToPath(new URL("../bin/agent.js", import.meta.url));
const BASELINE = fileURLToPath(new URL("./baseline-openai.mjs", import.meta.url));
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 15) || 15);
const WARMUPS = Math.max(0, Number(process.env.BENCH_WARMUPS ?? 2) || 0);

async function main(): Promise<void> {
  const ws = createWorkspace();
  const server = await startBenchServer(ws.file);
  try {
    const env = (extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv => benchRunEnv(server.baseUrl, extra);
    const check: BenchCommand["check"] = (result) => (result.stdout.includes(FINAL_TEXT) ? undefined : `stdout lacks "${FINAL_TEXT}"`);
    const agents = [AGENT, ...process.argv.slice(2)].map((agent): BenchCommand => ({
      label: agent,
      args: [agent, "-p", TOOL_PROMPT],
      cwd: ws.cwd,
      env: () => env({ AGENT_HOME: ws.freshHome() }),
      check,
    }));
    const baseline: BenchCommand = {
      label: "openai script (built-in fetch)",
      args: [BASELINE],
      cwd: ws.cwd,
      env: () => env({ BASELINE_MODE: "tool", BASELINE_FETCH: "builtin", BASELINE_PROMPT: TOOL_PROMPT }),
      check,
    };
    const stats = await timeInterleaved([...agents, baseline], WARMUPS, RUNS);
    const base = stats.get(baseline.label);
    if (!base) throw new Error("no baseline result");
    console.log(`two-turn -p, ${RUNS} runs after ${WARMUPS} warm-ups; baseline median ${base.median.toFixed(1)} ms (min ${base.min.toFixed(1)})`);
    for (const agent of agents) {
      const s = stats.get(agent.label);
      if (!s) continue;
      console.log(
        `  ${(s.median / base.median).toFixed(2)}×  median ${s.median.toFixed(1)} ms (min ${s.min.toFixed(1)}; last output → exit ${s.tailMedian.toFixed(1)} ms)  ${agent.label}`,
      );
    }
  } finally {
    await server.close();
    ws.cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(`two-turn: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});

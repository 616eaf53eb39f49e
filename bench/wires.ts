/**
 * The same 2,000-token streamed answer (`agent -p`) over each wire against Chat Completions, interleaved: the
 * Responses API (COPILOT_PROVIDER_WIRE_API=responses) and Anthropic Messages (COPILOT_PROVIDER_TYPE=anthropic,
 * whose SDK is loaded only then). The scripted server renders the same answer in each wire's events.
 *
 * Standalone: `node scripts/build.mjs && npx tsx bench/wires.ts` (BENCH_RUNS, BENCH_WARMUPS).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { NARROW_TARGET_RUNS, timeInterleaved, type BenchCommand, type BenchRunOptions, type Stats } from "./measure.js";
import { ms, ratioRow, type Row } from "./report.js";
import { createWorkspace, LONG_PROMPT, LONG_TAIL, LONG_TEXT, startBenchServer, standaloneRun } from "./scenario.js";

const TARGET_RATIO = 1.05;

const WIRES = [
  { name: "Chat Completions", env: {} },
  { name: "Responses API", env: { COPILOT_PROVIDER_WIRE_API: "responses" } },
  { name: "Anthropic Messages", env: { COPILOT_PROVIDER_TYPE: "anthropic" } },
] as const;

export async function benchWires(options: BenchRunOptions): Promise<{ rows: Row[]; timings: Map<string, Stats> }> {
  const check: BenchCommand["check"] = (result) =>
    result.stdout.includes(LONG_TAIL) && result.stdout.length >= LONG_TEXT.length
      ? undefined
      : `stdout is not the full long answer (${result.stdout.length} chars)`;
  const commands = WIRES.map((wire): BenchCommand => ({
    label: `agent -p (2,000 tokens, ${wire.name})`,
    args: [options.agent, "-p", LONG_PROMPT],
    cwd: options.cwd,
    env: () => options.env({ ...options.providerEnv, ...wire.env, AGENT_HOME: options.freshHome() }),
    check,
  }));
  const timings = await timeInterleaved(commands, options.warmups, Math.max(options.runs, NARROW_TARGET_RUNS));
  const get = (command: BenchCommand | undefined): Stats => {
    const stats = command && timings.get(command.label);
    if (!stats) throw new Error(`bench: no result for ${command?.label}`);
    return stats;
  };
  const [chat, responses, anthropic] = commands;
  return {
    rows: [
      ratioRow("2,000-token stream: Responses API / Chat Completions", get(responses), get(chat), TARGET_RATIO, 2),
      ratioRow("2,000-token stream: Anthropic Messages / Chat Completions", get(anthropic), get(chat), TARGET_RATIO, 2),
    ],
    timings,
  };
}

// Standalone run.
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const ws = createWorkspace();
  const server = await startBenchServer(ws.file);
  try {
    const result = await benchWires({
      ...standaloneRun(ws, server),
      runs: Number(process.env.BENCH_RUNS ?? 15),
      warmups: Number(process.env.BENCH_WARMUPS ?? 2),
    });
    for (const line of result.rows) console.log(`${line.name}: ${line.agent} vs ${line.baseline} → ${line.ratio?.toFixed(3)}×`);
    for (const [label, stats] of result.timings) console.log(`  ${label}: median ${ms(stats.median)}, min ${ms(stats.min)}, max ${ms(stats.max)}`);
  } finally {
    await server.close();
    ws.cleanup();
  }
}

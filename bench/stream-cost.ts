/**
 * The stream's CPU and the two-turn run's peak RSS (issue 24): `agent -p` against the bare `openai` script
 * (bench/baseline-openai.mjs) for the same exchange, measured by GNU time as the child's user+sys CPU and max
 * RSS, interleaved (agent, script, agent, script, …), medians. CPU, not wall time: on a shared 2-core machine
 * the wait for a core is noise, the work is not. Other builds given as arguments (paths to their
 * bin/agent.js) join the same interleaving.
 *
 *   node scripts/build.mjs && npx tsx bench/stream-cost.ts [/tmp/old/bin/agent.js …]
 *
 * Env: BENCH_RUNS (default 9), BENCH_WARMUPS (default 1).
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { median, runOnce, validate, type BenchCommand } from "./measure.js";
import { mb, ms, type Row } from "./report.js";
import { createWorkspace, FINAL_TEXT, LONG_PROMPT, LONG_TAIL, startBenchServer, TOOL_PROMPT } from "./scenario.js";

const GNU_TIME = "/usr/bin/time";
export const STREAM_CPU_TARGET = 1.0;
export const PEAK_RSS_TARGET_MB = 55;

export interface CostSample {
  cpuMs: number;
  rssMb: number;
}

/** One run under GNU time: the child's user+sys CPU and its max RSS. */
export async function costOnce(command: BenchCommand): Promise<CostSample> {
  const file = path.join(os.tmpdir(), `agent-bench-cost-${process.pid}-${Math.random().toString(36).slice(2)}.txt`);
  try {
    const result = await runOnce(command, { wrapper: [GNU_TIME, "-f", "%U %S %M", "-o", file] });
    validate(command, result);
    const last = readFileSync(file, "utf8").trim().split("\n").pop() ?? "";
    const [user, sys, kb] = last.split(" ").map(Number);
    return { cpuMs: ((user ?? NaN) + (sys ?? NaN)) * 1000, rssMb: (kb ?? NaN) / 1024 };
  } finally {
    rmSync(file, { force: true });
  }
}

/** Interleaved runs of every command; medians of CPU and RSS per label. */
export async function costInterleaved(
  commands: readonly BenchCommand[],
  warmups: number,
  runs: number,
): Promise<Map<string, { cpuMs: number; rssMb: number; cpu: number[]; rss: number[] }>> {
  const samples = new Map<string, CostSample[]>(commands.map((c) => [c.label, []]));
  for (let round = 0; round < warmups + runs; round++) {
    for (const command of commands) {
      const sample = await costOnce(command);
      if (round >= warmups) samples.get(command.label)?.push(sample);
    }
  }
  return new Map(
    [...samples].map(([label, list]) => {
      const cpu = list.map((s) => s.cpuMs);
      const rss = list.map((s) => s.rssMb);
      return [label, { cpuMs: median(cpu), rssMb: median(rss), cpu, rss }];
    }),
  );
}

export interface CostBenchOptions {
  agent: string;
  baseline: string;
  cwd: string;
  freshHome(): string;
  providerEnv: NodeJS.ProcessEnv;
  runs: number;
  warmups: number;
}

function cleanEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env["NODE_OPTIONS"];
  delete env["NODE_DEBUG"];
  return env;
}

const has =
  (expected: string): BenchCommand["check"] =>
  (result) =>
    result.stdout.includes(expected) ? undefined : `stdout lacks "${expected}"`;

function commands(options: CostBenchOptions, agents: readonly string[]) {
  const agentCmd = (agent: string, prompt: string, tag: string, expected: string): BenchCommand => ({
    label: `${agent} ${tag}`,
    args: [agent, "-p", prompt],
    cwd: options.cwd,
    env: () => cleanEnv({ ...options.providerEnv, AGENT_HOME: options.freshHome() }),
    check: has(expected),
  });
  const baseCmd = (mode: "long" | "tool", prompt: string, expected: string): BenchCommand => ({
    label: `openai script (${mode})`,
    args: [options.baseline],
    cwd: options.cwd,
    env: () => cleanEnv({ ...options.providerEnv, BASELINE_MODE: mode, BASELINE_FETCH: "builtin", BASELINE_PROMPT: prompt }),
    check: has(expected),
  });
  return {
    long: [...agents.map((a) => agentCmd(a, LONG_PROMPT, "(2,000 tokens)", LONG_TAIL)), baseCmd("long", LONG_PROMPT, LONG_TAIL)],
    twoTurn: [...agents.map((a) => agentCmd(a, TOOL_PROMPT, "(2 turns)", FINAL_TEXT)), baseCmd("tool", TOOL_PROMPT, FINAL_TEXT)],
  };
}

/** The two rows: 2,000-token stream CPU against the script (≤ 1.0×) and the two-turn run's peak RSS (≤ 55 MB). */
export async function benchStreamCost(options: CostBenchOptions): Promise<Row[]> {
  if (!existsSync(GNU_TIME)) return [];
  const { long, twoTurn } = commands(options, [options.agent]);
  const [agentLong, baseLong] = long as [BenchCommand, BenchCommand];
  const [agentTwo, baseTwo] = twoTurn as [BenchCommand, BenchCommand];
  const stream = await costInterleaved(long, options.warmups, options.runs);
  const turns = await costInterleaved(twoTurn, options.warmups, options.runs);
  const a = stream.get(agentLong.label);
  const b = stream.get(baseLong.label);
  const r = turns.get(agentTwo.label);
  const rb = turns.get(baseTwo.label);
  if (!a || !b || !r || !rb) throw new Error("bench: missing stream-cost results");
  const ratio = a.cpuMs / b.cpuMs;
  return [
    {
      name: "2,000-token stream CPU (user+sys): agent -p / openai script",
      agent: ms(a.cpuMs),
      baseline: ms(b.cpuMs),
      ratio,
      target: `≤ ${STREAM_CPU_TARGET.toFixed(1)}×`,
      pass: ratio <= STREAM_CPU_TARGET,
      data: { agentCpuMs: a.cpu, baselineCpuMs: b.cpu, target: STREAM_CPU_TARGET },
    },
    {
      name: "peak RSS, 2-turn -p (GNU time, median)",
      agent: mb(r.rssMb),
      baseline: mb(rb.rssMb),
      ratio: r.rssMb / rb.rssMb,
      target: `≤ ${PEAK_RSS_TARGET_MB} MB`,
      pass: r.rssMb <= PEAK_RSS_TARGET_MB,
      data: { agentMb: r.rss, baselineMb: rb.rss, targetMb: PEAK_RSS_TARGET_MB },
    },
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 9) || 9);
  const warmups = Math.max(0, Number(process.env.BENCH_WARMUPS ?? 1) || 0);
  const agent = fileURLToPath(new URL("../bin/agent.js", import.meta.url));
  const baseline = fileURLToPath(new URL("./baseline-openai.mjs", import.meta.url));
  const ws = createWorkspace();
  const server = await startBenchServer(ws.file);
  try {
    const options: CostBenchOptions = {
      agent,
      baseline,
      cwd: ws.cwd,
      freshHome: ws.freshHome,
      providerEnv: { OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: "test", AGENT_MODEL: "bench-model" },
      runs,
      warmups,
    };
    const agents = [agent, ...process.argv.slice(2)];
    const { long, twoTurn } = commands(options, agents);
    const only = process.env.BENCH_ONLY;
    console.log(
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}; ${runs} runs after ${warmups} warm-ups`,
    );
    for (const [name, set] of [
      ["2,000-token stream", long],
      ["two-turn -p", twoTurn],
    ] as const) {
      if (only && !name.includes(only)) continue;
      const results = await costInterleaved(set, warmups, runs);
      const base = results.get(set[set.length - 1]?.label ?? "");
      console.log(`${name}:`);
      for (const [label, r] of results) {
        const ratio = base ? ` (${(r.cpuMs / base.cpuMs).toFixed(2)}× CPU)` : "";
        console.log(`  CPU ${ms(r.cpuMs)}${ratio}, peak RSS ${mb(r.rssMb)}  ${label}`);
      }
    }
    console.log(
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
  } finally {
    await server.close();
    ws.cleanup();
  }
}

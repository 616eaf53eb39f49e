/**
 * Start-up: launch → the first request to the model, the agent's `-p` run against the bare `openai` script
 * doing the same exchange, and `agent --version` against `node -e 0`. Each run is measured twice: the wall
 * time from spawn() to the moment the scripted server receives the first completion request, and the CPU
 * time the child had used by then (the sum over its threads of /proc/<pid>/task/<tid>/schedstat, read from
 * outside at that moment, so nothing is preloaded into the child). On a shared machine the CPU figure is
 * the one to trust. Runs are interleaved, medians of BENCH_RUNS after BENCH_WARMUPS warm-ups.
 *
 *   node scripts/build.mjs && npx tsx bench/startup.ts [/path/to/other/bin/agent.js …]
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { median } from "./measure.js";
import { benchRunEnv, createWorkspace, FINAL_TEXT, startBenchServer, TOOL_PROMPT } from "./scenario.js";
import type { ScriptedServer } from "../test/support/scripted-server.js";

const AGENT = fileURLToPath(new URL("../bin/agent.js", import.meta.url));
const BASELINE = fileURLToPath(new URL("./baseline-openai.mjs", import.meta.url));

export interface StartupSample {
  /** spawn → first completion request received (NaN for a run that sends none). */
  firstRequestMs: number;
  /** CPU time of the child up to that moment (NaN when /proc is unreadable or no request was sent). */
  firstRequestCpuMs: number;
  /** spawn → exit. */
  wallMs: number;
}

/** CPU time (ms) of a live process: the sum over its threads of schedstat's time-on-CPU (ns). */
export function processCpuMs(pid: number): number {
  const dir = `/proc/${pid}/task`;
  if (!existsSync(dir)) return Number.NaN;
  let ns = 0;
  try {
    for (const tid of readdirSync(dir)) ns += Number(readFileSync(`${dir}/${tid}/schedstat`, "utf8").split(" ")[0]);
  } catch {
    return Number.NaN;
  }
  return ns / 1e6;
}

/** Spawn one run of node with `args`; its first request is the first completion `server` receives meanwhile. */
export function runStartup(
  server: ScriptedServer,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  check: (stdout: string) => boolean,
): Promise<StartupSample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstRequestMs = Number.NaN;
    let firstRequestCpuMs = Number.NaN;
    const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    const onCompletion = () => {
      if (!Number.isNaN(firstRequestMs)) return;
      firstRequestMs = performance.now() - started;
      if (child.pid !== undefined) firstRequestCpuMs = processCpuMs(child.pid);
    };
    server.on("completion", onCompletion);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (part: string) => (stdout += part));
    child.stderr.setEncoding("utf8").on("data", (part: string) => (stderr += part));
    child.on("error", reject);
    child.on("close", (code) => {
      server.off("completion", onCompletion);
      const wallMs = performance.now() - started;
      if (code !== 0 || !check(stdout)) reject(new Error(`${args.join(" ")}: exit ${code}\n${stdout}\n${stderr}`));
      else resolve({ firstRequestMs, firstRequestCpuMs, wallMs });
    });
  });
}

function summary(label: string, samples: StartupSample[]): string {
  const f = (values: number[]) => median(values.filter((v) => Number.isFinite(v))).toFixed(1);
  return `${f(samples.map((s) => s.firstRequestCpuMs)).padStart(7)} ms CPU  ${f(samples.map((s) => s.firstRequestMs)).padStart(7)} ms wall to first request  ${f(samples.map((s) => s.wallMs)).padStart(7)} ms wall total  ${label}`;
}

async function main(): Promise<void> {
  const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 11) || 11);
  const warmups = Math.max(0, Number(process.env.BENCH_WARMUPS ?? 2) || 0);
  const ws = createWorkspace();
  const server = await startBenchServer(ws.file);
  try {
    const env = (extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv => benchRunEnv(server.baseUrl, extra);
    const said = (stdout: string) => stdout.includes(FINAL_TEXT);
    const commands: { label: string; run: () => Promise<StartupSample> }[] = [
      ...[AGENT, ...process.argv.slice(2)].map((agent) => ({
        label: `agent -p  ${agent}`,
        run: () => runStartup(server, [agent, "-p", TOOL_PROMPT], ws.cwd, env({ AGENT_HOME: ws.freshHome() }), said),
      })),
      {
        label: "openai script",
        run: () => runStartup(server, [BASELINE], ws.cwd, env({ BASELINE_MODE: "tool", BASELINE_PROMPT: TOOL_PROMPT }), said),
      },
      { label: "agent --version", run: () => runStartup(server, [AGENT, "--version"], ws.cwd, env({}), (out) => out.startsWith("agent ")) },
      { label: "node -e 0", run: () => runStartup(server, ["-e", "0"], ws.cwd, env({}), () => true) },
    ];
    const samples = new Map(commands.map((c) => [c.label, [] as StartupSample[]]));
    for (let round = 0; round < warmups + runs; round++) {
      for (const command of commands) {
        const sample = await command.run();
        if (round >= warmups) samples.get(command.label)?.push(sample);
      }
    }
    console.log(`start-up, ${runs} runs after ${warmups} warm-ups; load average ${os.loadavg()[0]?.toFixed(1)}`);
    for (const command of commands) console.log(summary(command.label, samples.get(command.label) ?? []));
  } finally {
    await server.close();
    ws.cleanup();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(`startup: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}

/**
 * What a no-op hook costs per tool call: the same `-p` run (one response with HOOK_BENCH_CALLS `view` calls,
 * then an answer) with and without a user hook file holding a no-op preToolUse hook (`true`), interleaved.
 * (with − without) / calls is the cost per call, including the one-off loading of the hook runner.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stdoutHas, timeInterleaved, type BenchCommand, type BenchRunOptions } from "./measure.js";
import { ms, type Row } from "./report.js";
import { FINAL_TEXT, HOOK_BENCH_CALLS, HOOKS_MARKER } from "./scenario.js";

export type HookBenchOptions = BenchRunOptions;

const TARGET_MS = 20;

export async function benchHooks(options: HookBenchOptions): Promise<Row> {
  const prompt = `${HOOKS_MARKER}: read notes.txt ${HOOK_BENCH_CALLS} times.`;
  const check = stdoutHas(FINAL_TEXT);
  const command = (label: string, withHook: boolean): BenchCommand => ({
    label,
    args: [options.agent, "-p", prompt],
    cwd: options.cwd,
    env: () => {
      const home = options.freshHome();
      if (withHook) {
        mkdirSync(path.join(home, "hooks"));
        writeFileSync(path.join(home, "hooks", "noop.json"), JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: "command", bash: "true" }] } }));
      }
      return options.env({ ...options.providerEnv, AGENT_HOME: home });
    },
    check,
  });
  const without = command(`agent -p (${HOOK_BENCH_CALLS} calls, no hooks)`, false);
  const withHook = command(`agent -p (${HOOK_BENCH_CALLS} calls, no-op preToolUse)`, true);
  const timings = await timeInterleaved([without, withHook], options.warmups, options.runs);
  const base = timings.get(without.label);
  const hooked = timings.get(withHook.label);
  if (!base || !hooked) throw new Error("bench: the hook runs gave no result");
  const perCall = (hooked.median - base.median) / HOOK_BENCH_CALLS;
  return {
    name: `no-op preToolUse hook, cost per tool call (${HOOK_BENCH_CALLS} calls per run)`,
    agent: `${ms(perCall)} (${ms(hooked.median)} run)`,
    baseline: `${ms(base.median)} run`,
    ratio: hooked.median / base.median,
    target: `≤ ${TARGET_MS} ms per call`,
    pass: perCall <= TARGET_MS,
    data: { perCallMs: perCall, withHook: hooked, withoutHooks: base, calls: HOOK_BENCH_CALLS, targetMs: TARGET_MS },
  };
}

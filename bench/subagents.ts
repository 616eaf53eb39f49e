/**
 * What a sync subagent costs: the same `-p` exchange where the main agent delegates one model call to the
 * `explore` agent (task → the agent's one call → the answer), against the main agent making a tool call
 * itself (view → the answer), interleaved. The difference is the subagent's overhead plus its one model
 * call; the bench server answers a call in about a millisecond, so nearly all of it is overhead.
 */
import { stdoutHas, timeInterleaved, type BenchCommand, type BenchRunOptions } from "./measure.js";
import { ms, type Row } from "./report.js";
import { FINAL_TEXT, SUBAGENT_MARKER, TOOL_PROMPT } from "./scenario.js";

export type SubagentBenchOptions = BenchRunOptions;

const TARGET_MS = 15;

export async function benchSubagent(options: SubagentBenchOptions): Promise<Row> {
  const check = stdoutHas(FINAL_TEXT);
  const command = (label: string, prompt: string): BenchCommand => ({
    label,
    args: [options.agent, "-p", prompt, "--allow-all-tools"],
    cwd: options.cwd,
    env: () => options.env({ ...options.providerEnv, AGENT_HOME: options.freshHome() }),
    check,
  });
  const direct = command("agent -p (the main agent reads)", TOOL_PROMPT);
  const delegated = command("agent -p (a sync explore agent reads)", `${SUBAGENT_MARKER}: find out what notes.txt says.`);
  const timings = await timeInterleaved([direct, delegated], options.warmups, options.runs);
  const base = timings.get(direct.label);
  const sub = timings.get(delegated.label);
  if (!base || !sub) throw new Error("bench: the subagent runs gave no result");
  const overhead = sub.median - base.median;
  return {
    name: "sync subagent, one model call: added to the run (incl. that call)",
    agent: `${ms(overhead)} (${ms(sub.median)} run)`,
    baseline: `${ms(base.median)} run`,
    ratio: sub.median / base.median,
    target: `≤ ${TARGET_MS} ms + its call`,
    pass: overhead <= TARGET_MS,
    data: { overheadMs: overhead, delegated: sub, direct: base, targetMs: TARGET_MS },
  };
}

/**
 * `/context` on a long session: the time from dispatching "/context" to its answer, in process, on a resumed
 * session of 10,002 events (bench/tui-sessions.ts). It answers from memory (no model call, no log read), so
 * the figure is the report itself; the target is 50 ms.
 */
import { mkdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ms, type Row } from "./report.js";
import { prepareSession } from "./tui-sessions.js";

const TARGET_MS = 50;
/** 10,002 events: session.start, system.message and 4 events per exchange. */
const MESSAGES = 5000;

/** `now`: the clock in ms (the bench's wall clock; the test passes CPU time, which a loaded machine does not stretch). */
export async function timeContextCommand(
  runs: number,
  now: () => number = () => performance.now(),
): Promise<{ first: number; median: number; max: number; events: number }> {
  const { startHarness } = await import("../test/support/engine-harness.js");
  const root = path.join(os.tmpdir(), `agent-bench-context-${process.pid}`);
  const home = path.join(root, "home");
  const cwd = path.join(root, "cwd");
  mkdirSync(cwd, { recursive: true });
  const session = prepareSession(home, cwd, MESSAGES, "scripted-model");
  const harness = await startHarness({ home, cwd, resumeId: session.id });
  try {
    const times: number[] = [];
    for (let run = 0; run < runs; run++) {
      const started = now();
      await harness.session.dispatch({ type: "input", text: "/context" });
      times.push(now() - started);
    }
    if (harness.server.completionRequests.length > 0) throw new Error("bench: /context called the model");
    const sorted = [...times].sort((a, b) => a - b);
    return {
      first: times[0] ?? Number.NaN,
      median: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN,
      max: sorted.at(-1) ?? Number.NaN,
      events: 2 + MESSAGES * 2,
    };
  } finally {
    await harness.close();
    rmSync(root, { recursive: true, force: true });
  }
}

export async function benchContext(runs: number): Promise<Row> {
  const figure = await timeContextCommand(runs);
  return {
    name: `/context on a ${figure.events.toLocaleString("en")}-event session (first, median of ${runs})`,
    agent: `${ms(figure.first)}, ${ms(figure.median)}`,
    baseline: "—",
    ratio: undefined,
    target: `≤ ${TARGET_MS} ms`,
    pass: figure.median <= TARGET_MS,
    data: { ...figure, targetMs: TARGET_MS },
  };
}

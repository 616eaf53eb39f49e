/**
 * Rewind's costs (issue 21): saving a 1 MB file before a tool changes it (a new content each run, so each
 * is written; target ≤ 5 ms), and opening /rewind's list on a resumed session of 10,002 events (the first
 * `rewind_points` of the session, in process, each of its 2,500 prompts with an index of two changed files;
 * target ≤ 100 ms). Alone: `npx tsx bench/rewind.ts`.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SnapshotStore } from "../src/session/rewind/snapshot-store.js";
import { ms, type Row } from "./report.js";
import { prepareSession } from "./tui-sessions.js";

const SNAPSHOT_TARGET_MS = 5;
const LIST_TARGET_MS = 100;
/** 10,002 events: session.start, system.message and 4 events per exchange (bench/tui-sessions.ts). */
const MESSAGES = 5000;

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export function timeSnapshot(runs: number): { median: number; min: number } {
  const root = path.join(os.tmpdir(), `agent-bench-snapshot-${process.pid}`);
  mkdirSync(root, { recursive: true });
  try {
    const store = new SnapshotStore(path.join(root, "session"));
    const file = path.join(root, "big.bin");
    const times: number[] = [];
    for (let run = 0; run < runs + 2; run++) {
      writeFileSync(file, randomBytes(1024 * 1024));
      const started = performance.now();
      store.save(file);
      if (run >= 2) times.push(performance.now() - started);
    }
    return { median: median(times), min: Math.min(...times) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The first /rewind list of each of `runs` resumes of one 10,002-event session (a fresh process state each time but for the JIT). */
export async function timeRewindList(runs: number): Promise<{ median: number; max: number; events: number; points: number }> {
  const { startHarness } = await import("../test/support/engine-harness.js");
  const root = path.join(os.tmpdir(), `agent-bench-rewind-${process.pid}`);
  const home = path.join(root, "home");
  const cwd = path.join(root, "cwd");
  mkdirSync(cwd, { recursive: true });
  try {
    const session = prepareSession(home, cwd, MESSAGES, "scripted-model");
    // As if every prompt had changed two files: one index per prompt for the list to read.
    const store = new SnapshotStore(path.join(home, "session-state", session.id));
    const state = { kind: "file" as const, hash: "0".repeat(64), mode: 0o644, size: 10 };
    for (const line of readFileSync(path.join(home, "session-state", session.id, "events.jsonl"), "utf8").split("\n")) {
      if (!line.includes('"type":"user.message"')) continue;
      const { id } = JSON.parse(line) as { id: string };
      const entry = { before: state, after: state, linesAdded: 3, linesRemoved: 1 };
      store.writePoint({ schema: 1, eventId: id, files: { [path.join(cwd, "src", "a.ts")]: entry, [path.join(cwd, "src", "b.ts")]: entry } });
    }
    const times: number[] = [];
    let points = 0;
    for (let run = 0; run < runs; run++) {
      const harness = await startHarness({ home, cwd, resumeId: session.id });
      try {
        const started = performance.now();
        points = harness.session.dispatch({ type: "rewind_points" }).length;
        times.push(performance.now() - started);
      } finally {
        await harness.close();
      }
    }
    return { median: median(times), max: Math.max(...times), events: 2 + MESSAGES * 2, points };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export async function benchRewind(runs: number): Promise<Row[]> {
  const snapshot = timeSnapshot(runs);
  const list = await timeRewindList(Math.min(runs, 5));
  return [
    {
      name: `Rewind snapshot of a 1 MB file before a tool changes it (median of ${runs})`,
      agent: ms(snapshot.median),
      baseline: "—",
      ratio: undefined,
      target: `≤ ${SNAPSHOT_TARGET_MS} ms`,
      pass: snapshot.median <= SNAPSHOT_TARGET_MS,
      data: { ...snapshot, targetMs: SNAPSHOT_TARGET_MS },
    },
    {
      name: `/rewind list on a resumed ${list.events.toLocaleString("en")}-event session, ${list.points.toLocaleString("en")} points (first list of a resume, median of ${Math.min(runs, 5)})`,
      agent: ms(list.median),
      baseline: "—",
      ratio: undefined,
      target: `≤ ${LIST_TARGET_MS} ms`,
      pass: list.median <= LIST_TARGET_MS,
      data: { ...list, targetMs: LIST_TARGET_MS },
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await benchRewind(Number(process.env.BENCH_RUNS ?? 15))) console.log(`${row.name}: ${row.agent} (target ${row.target})`);
}

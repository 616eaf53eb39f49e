/**
 * Memory's costs (issue 22): loading the board from a store of 1,000 memories (read, parse, rank, fit the
 * budget, make the tools), in process, first call and median after it, against 5 ms; and a `-p` run with memory
 * off, under the module tracker, must load nothing of memory's store, board or tools. Alone:
 * `node scripts/build.mjs && npx tsx bench/memory.ts`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MemorySpace } from "../src/memory/memory-space.js";
import { memorySettings } from "../src/memory/memory-settings.js";
import { SessionMemory } from "../src/memory/session-memory.js";
import { distSources, trackedHeadlessRun, type TrackedRunOptions } from "./module-check.js";
import { ms, type Row } from "./report.js";
const MEMORIES = 1_000;
const TARGET_MS = 5;

export type MemoryBenchOptions = TrackedRunOptions & { runs: number };

/** A store of `count` memories of ordinary size, written as the store writes them. */
function fillStore(home: string, cwd: string, count: number): string {
  const file = new MemorySpace(home, cwd).repository.file;
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const now = Date.now();
  const lines = Array.from({ length: count }, (_, n) =>
    JSON.stringify({
      id: `m-${n.toString(16).padStart(8, "0")}`,
      subject: `subject ${n % 40}`,
      fact: `Fact number ${n}: the module in src/area${n % 25}/file${n}.ts handles case ${n} and must be changed with its test.`,
      citations: [`src/area${n % 25}/file${n}.ts:${(n % 300) + 1}`],
      scope: "repository",
      createdAt: new Date(now - n * 3_600_000).toISOString(),
      confirmedAt: new Date(now - n * 1_800_000).toISOString(),
      score: 1 + (n % 5),
      source: { sessionId: "00000000-0000-4000-8000-000000000000", toolCallId: `call_${n}` },
    }),
  );
  writeFileSync(file, `${lines.join("\n")}\n`, { mode: 0o600 });
  return file;
}

async function boardLoad(runs: number): Promise<Row> {
  const home = mkdtempSync(path.join(os.tmpdir(), "bench-memory-home-"));
  const cwd = mkdtempSync(path.join(os.tmpdir(), "bench-memory-cwd-"));
  try {
    fillStore(home, cwd, MEMORIES);
    const wall: number[] = [];
    const cpu: number[] = [];
    let shown = 0;
    for (let run = 0; run <= runs; run++) {
      const memory = new SessionMemory({
        agentHome: home,
        cwd,
        sessionId: "bench",
        enabled: true,
        settings: memorySettings({ enabled: true }),
        transcriptFile: path.join(home, "none.jsonl"),
      });
      const cpuStart = process.cpuUsage();
      const started = performance.now();
      await memory.start();
      wall.push(performance.now() - started);
      const used = process.cpuUsage(cpuStart);
      cpu.push((used.user + used.system) / 1000);
      shown = memory.board?.shown.length ?? 0;
      if (!memory.boardText.includes("<context_board>")) throw new Error("bench: the board is empty");
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
    // The first call also loads the code (compiled by tsx here, unlike the bundle): kept in the data, left out of
    // the medians. CPU time is what the load costs; wall time also holds the wait for a CPU on a busy machine.
    const first = wall[0] ?? Number.NaN;
    const wallMedian = median(wall.slice(1));
    const cpuMedian = median(cpu.slice(1));
    return {
      name: `memory: load the board from ${MEMORIES.toLocaleString("en")} memories, in process (median wall / CPU)`,
      agent: `${ms(wallMedian)} / ${ms(cpuMedian)}`,
      baseline: "—",
      ratio: undefined,
      target: `≤ ${TARGET_MS} ms`,
      pass: cpuMedian <= TARGET_MS,
      data: {
        firstMs: first,
        wallMedianMs: wallMedian,
        cpuMedianMs: cpuMedian,
        minWallMs: Math.min(...wall.slice(1)),
        memories: MEMORIES,
        onBoard: shown,
        targetMs: TARGET_MS,
      },
    };
  } finally {
    for (const dir of [home, cwd]) rmSync(dir, { recursive: true, force: true });
  }
}

async function memoryOffLoadsNothing(options: MemoryBenchOptions): Promise<Row> {
  const lines = await trackedHeadlessRun(options, "agent -p (module tracker, memory off)");
  const sources = distSources(lines);
  // The switch itself (session-memory.ts, memory-settings.ts) is all a session without memory carries.
  const loaded = sources.filter((source) => /src\/memory\//.test(source) && !/(session-memory|memory-settings)\.ts$/.test(source));
  return {
    name: "memory off (-p): loads its store, board or tools",
    agent: sources.length === 0 ? "unknown" : loaded.length > 0 ? "yes" : "no",
    baseline: "—",
    ratio: undefined,
    target: "no",
    pass: sources.length === 0 ? undefined : loaded.length === 0,
    data: { loaded },
  };
}

export async function benchMemory(options: MemoryBenchOptions): Promise<Row[]> {
  return [await boardLoad(options.runs), await memoryOffLoadsNothing(options)];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const runs = Number(process.env.BENCH_RUNS) > 0 ? Number(process.env.BENCH_RUNS) : 15;
  const row = await boardLoad(runs);
  console.log(`${row.name}: ${row.agent} (target ${row.target}) → ${row.pass ? "met" : "MISSED"}`);
}

/**
 * What skills on disk cost before the first request: the two-turn `-p` run with 200 user skills in
 * AGENT_HOME/skills (each a folder with a SKILL.md of realistic size) against none, interleaved. Timed from
 * spawn to the first chat request reaching the bench server (in this process), so only start-up counts: the
 * frontmatter of every skill is read then (bodies are read when loaded; a file read before is only stat'ed, its
 * frontmatter coming from skills-cache.json), and the list goes into the system prompt. A third run reads all
 * 200 for the first time (a fresh home, no cache). The rounds rotate the three, and each run's CPU time at its
 * first request goes into the row's data (addedCpuMs). The row is the median of the rounds' differences, over at
 * least 15 rounds: on a busy machine the wall medians of 7 runs swing by tens of milliseconds, more than the
 * skills cost.
 *
 * Standalone: `node scripts/build.mjs && npx tsx bench/skills.ts` (BENCH_RUNS, BENCH_WARMUPS).
 */
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./measure.js";
import { ms, type Row } from "./report.js";
import { createWorkspace, FINAL_TEXT, startBenchServer, TOOL_PROMPT, standaloneRun } from "./scenario.js";
import { runStartup } from "./startup.js";
import type { ScriptedServer } from "../test/support/scripted-server.js";

const SKILLS = 200;
const TARGET_MS = 10;

export interface SkillBenchOptions {
  agent: string;
  cwd: string;
  freshHome(): string;
  env(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  providerEnv: NodeJS.ProcessEnv;
  server: ScriptedServer;
  runs: number;
  warmups: number;
}

/** A skills folder of `count` skills, each with a description and a 2 KB body. */
function writeSkills(dir: string, count: number): void {
  for (let index = 0; index < count; index++) {
    const name = `skill-${String(index).padStart(3, "0")}`;
    mkdirSync(path.join(dir, name, "scripts"), { recursive: true });
    writeFileSync(
      path.join(dir, name, "SKILL.md"),
      `---\nname: ${name}\ndescription: Does task number ${index} of the project. Use when the user asks for task ${index}, or mentions its files.\nargument-hint: <file>\nallowed-tools: Bash(make:*) Read\nmetadata:\n  version: "1.${index}"\n---\n# ${name}\n\n${"Step by step instructions for the task. ".repeat(50)}\n`,
    );
    writeFileSync(path.join(dir, name, "scripts", "run.sh"), "#!/bin/sh\necho run\n");
  }
}

interface Timing {
  firstMs: number;
  /** The child's CPU time when its first request arrived (every thread's; the figure to read on a busy machine). */
  firstCpuMs: number;
  wallMs: number;
}

/** Spawn → first chat request, and the run's whole time; the run must answer. */
async function timeToFirstRequest(options: SkillBenchOptions, home: string, codeCache: string): Promise<Timing> {
  const env = options.env({ ...options.providerEnv, AGENT_HOME: home, XDG_CACHE_HOME: codeCache });
  const run = await runStartup(options.server, [options.agent, "-p", TOOL_PROMPT], options.cwd, env, (stdout) => stdout.includes(FINAL_TEXT));
  return { firstMs: run.firstRequestMs, firstCpuMs: run.firstRequestCpuMs, wallMs: run.wallMs };
}

export async function benchSkills(options: SkillBenchOptions): Promise<Row[]> {
  const template = path.join(options.freshHome(), "skills");
  writeSkills(template, SKILLS);
  const withSkills = () => {
    const home = options.freshHome();
    cpSync(template, path.join(home, "skills"), { recursive: true });
    return home;
  };
  // One home each for the compared runs (their sessions accumulate, a few dozen): the skills' home keeps its
  // frontmatter cache from the priming run, as a user's does from their last start.
  const noneHome = options.freshHome();
  const cachedHome = withSkills();
  const variants = { none: () => noneHome, cached: () => cachedHome, uncached: withSkills };
  // Each variant has a code cache of its own, written by its first run (below), as a user's holds the code their
  // runs compile: with one shared cache, the variant that ran first would find its code compiled and the others
  // compile theirs at every run.
  const codeCaches = { none: options.freshHome(), cached: options.freshHome(), uncached: options.freshHome() };
  for (const variant of ["none", "cached", "uncached"] as const) await timeToFirstRequest(options, variants[variant](), codeCaches[variant]);
  const times: Record<keyof typeof variants, Timing[]> = { none: [], cached: [], uncached: [] };
  const order = ["none", "cached", "uncached"] as const;
  // A difference of a few ms between ~110 ms runs: more rounds than the ratios' (15 rounds of three runs, about 6 s).
  const rounds = Math.max(options.runs, 15);
  for (let round = 0; round < options.warmups + rounds; round++) {
    // Each round starts one variant later (as timeInterleaved does): on a busy machine the first run of a round
    // is often tens of milliseconds faster or slower, and "none" went first in every round.
    const start = round % order.length;
    for (const variant of [...order.slice(start), ...order.slice(0, start)]) {
      const result = await timeToFirstRequest(options, variants[variant](), codeCaches[variant]);
      if (round >= options.warmups) times[variant].push(result);
    }
  }
  const first = (variant: keyof typeof times) => median(times[variant].map((time) => time.firstMs));
  const wall = (variant: keyof typeof times) => median(times[variant].map((time) => time.wallMs));
  const cpu = (variant: keyof typeof times) => median(times[variant].map((time) => time.firstCpuMs));
  const paired = (variant: "cached" | "uncached", figure: "firstMs" | "firstCpuMs") =>
    median(times[variant].map((time, round) => time[figure] - (times.none[round] as Timing)[figure]));
  const row = (variant: "cached" | "uncached", name: string, target: boolean): Row => {
    // The median of each round's difference: a round runs the variants back to back, so a drift in the machine's
    // speed moves them alike, where a difference of two medians took it in (+2.0 to +13.8 ms for one build).
    const added = paired(variant, "firstMs");
    return {
      name,
      agent: `${added >= 0 ? "+" : "−"}${ms(Math.abs(added))} (${ms(first(variant))})`,
      baseline: `${ms(first("none"))} with none`,
      ratio: first(variant) / first("none"),
      target: target ? `≤ +${TARGET_MS} ms` : "—",
      pass: target ? added <= TARGET_MS : undefined,
      data: {
        skills: SKILLS,
        addedMs: added,
        firstRequestMs: { none: first("none"), [variant]: first(variant) },
        cpuAtFirstRequestMs: { none: cpu("none"), [variant]: cpu(variant) },
        addedCpuMs: paired(variant, "firstCpuMs"),
        wallMs: { none: wall("none"), [variant]: wall(variant) },
      },
    };
  };
  return [
    row("cached", `start-up → first request, ${SKILLS} skills on disk (read before) vs none (median of ${rounds} rounds' differences)`, true),
    row("uncached", `the same, ${SKILLS} skills read for the first time (no frontmatter cache)`, false),
  ];
}

// Standalone: `npx tsx bench/skills.ts`.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const ws = createWorkspace();
  const server = await startBenchServer(ws.file);
  try {
    const rows = await benchSkills({
      ...standaloneRun(ws, server),
      server,
      runs: Math.max(1, Number(process.env.BENCH_RUNS ?? 15) || 15),
      warmups: Math.max(0, Number(process.env.BENCH_WARMUPS ?? 2) || 0),
    });
    for (const row of rows) {
      const added = Number(row.data["addedCpuMs"]);
      const cpu = `${added >= 0 ? "+" : "−"}${ms(Math.abs(added))}`;
      console.log(
        `${row.name}: ${row.agent} vs ${row.baseline} (target ${row.target}${row.pass === undefined ? "" : row.pass ? ": met" : ": missed"}); CPU ${cpu}`,
      );
    }
  } finally {
    await server.close();
    ws.cleanup();
  }
}

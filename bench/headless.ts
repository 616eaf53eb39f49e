/**
 * Issue 24's headless rows, each against its baseline in the same interleaved rounds:
 *
 *   start-up           `agent --version` vs `node -e 0` (wall)                                  ≤ 1.2×
 *   two-turn `-p`      view a file, then answer, vs bench/baseline-openai.mjs (wall)            ≤ 0.75×
 *   launch → request   spawn → the scripted server receives the first model request, in the
 *                      same two-turn runs, vs the script's                                      ≤ 1.0×
 *   peak RSS           of the two-turn run                                                      ≤ 55 MB
 *   2,000-token stream vs the script: wall (information) and CPU of the child (user + sys)     ≤ 1.0× (CPU)
 *   ink/react          not loaded on the headless path                                          no
 *
 * The two-turn and stream runs carry the CPU preload (bench/cpu-preload.mjs) on both sides, so each costs
 * both the same; the start-up pair runs bare.
 */
import type { ScriptedServer } from "../test/support/scripted-server.js";
import { checkHeadlessModules, type ModuleReport } from "./module-check.js";
import { detectRssMethod, peakRssMb, stdoutHas, timeInterleaved, type BenchCommand, type BenchRunOptions, type Stats } from "./measure.js";
import { cpuFigure, firstRequestFigure, mb, ms, ratioRow, type Row } from "./report.js";
import { FINAL_TEXT, LONG_PROMPT, LONG_TAIL, LONG_TEXT, TOOL_PROMPT } from "./scenario.js";

export interface HeadlessBenchOptions extends BenchRunOptions {
  /** Path of bench/baseline-openai.mjs. */
  baseline: string;
  /** The dist/ folder, for the module check. */
  dist: string;
  server: ScriptedServer;
  rssRuns: number;
}

export interface HeadlessBenchResult {
  rows: Row[];
  timings: Map<string, Stats>;
  notes: string[];
}

export const TARGETS = { startup: 1.2, twoTurn: 0.75, firstRequest: 1.0, rssMb: 55, streamCpu: 1.0 } as const;

const longCheck: BenchCommand["check"] = (result) =>
  result.stdout.includes(LONG_TAIL) && result.stdout.length >= LONG_TEXT.length
    ? undefined
    : `stdout is not the full long answer (${result.stdout.length} chars)`;

function must<T>(map: Map<string, T>, key: string): T {
  const value = map.get(key);
  if (value === undefined) throw new Error(`bench: no result for ${key}`);
  return value;
}

export async function benchHeadless(options: HeadlessBenchOptions): Promise<HeadlessBenchResult> {
  const { runs, warmups, cwd } = options;
  const agentCmd = (label: string, prompt: string, check: BenchCommand["check"]): BenchCommand => ({
    label,
    args: [options.agent, "-p", prompt],
    cwd,
    env: () => options.env({ ...options.providerEnv, AGENT_HOME: options.freshHome() }),
    check,
  });
  const baselineCmd = (label: string, mode: "tool" | "long", fetch: "builtin" | "node-http", check: BenchCommand["check"]): BenchCommand => ({
    label,
    args: [options.baseline],
    cwd,
    env: () =>
      options.env({ ...options.providerEnv, BASELINE_MODE: mode, BASELINE_FETCH: fetch, BASELINE_PROMPT: mode === "long" ? LONG_PROMPT : TOOL_PROMPT }),
    check,
  });
  const rows: Row[] = [];

  // Start-up.
  const version: BenchCommand = { label: "agent --version", args: [options.agent, "--version"], cwd, env: () => options.env({}), check: stdoutHas("agent ") };
  const nodeNoop: BenchCommand = { label: "node -e 0", args: ["-e", "0"], cwd, env: () => options.env({}) };
  const startup = await timeInterleaved([version, nodeNoop], warmups, runs);
  rows.push(ratioRow("start-up: agent --version / node -e 0", must(startup, version.label), must(startup, nodeNoop.label), TARGETS.startup));

  // The two-turn -p run (view, then a short answer), timed to exit and to the first model request.
  const agentTool = agentCmd("agent -p (2 turns)", TOOL_PROMPT, stdoutHas(FINAL_TEXT));
  const baseTool = baselineCmd("openai script (2 turns, built-in fetch)", "tool", "builtin", stdoutHas(FINAL_TEXT));
  const baseToolHttp = baselineCmd("openai script (2 turns, node:http fetch)", "tool", "node-http", stdoutHas(FINAL_TEXT));
  const twoTurn = await timeInterleaved([agentTool, baseTool, baseToolHttp], warmups, runs, { cpu: true, server: options.server });
  const agentTwo = must(twoTurn, agentTool.label);
  const builtin = must(twoTurn, baseTool.label);
  const nodeHttp = must(twoTurn, baseToolHttp.label);
  rows.push(ratioRow("2-turn -p: agent / openai script (built-in fetch)", agentTwo, builtin, TARGETS.twoTurn, 2));
  rows.push(ratioRow("  the same, CPU time (user + sys)", cpuFigure(agentTwo), cpuFigure(builtin), undefined));
  rows.push(ratioRow("launch → first model request: agent / openai script", firstRequestFigure(agentTwo), firstRequestFigure(builtin), TARGETS.firstRequest));

  // Peak RSS of the same exchange.
  const rssMethod = await detectRssMethod(cwd);
  const agentRss = await peakRssMb(agentTool, rssMethod, options.rssRuns);
  const baseRss = await peakRssMb(baseTool, rssMethod, options.rssRuns);
  rows.push({
    name: `peak RSS, 2-turn -p (${rssMethod}, median of ${options.rssRuns})`,
    agent: mb(agentRss),
    baseline: mb(baseRss),
    ratio: agentRss !== undefined && baseRss !== undefined ? agentRss / baseRss : undefined,
    target: `agent ≤ ${TARGETS.rssMb} MB`,
    pass: agentRss === undefined ? undefined : agentRss <= TARGETS.rssMb,
    data: { method: rssMethod, agentMb: agentRss ?? null, baselineMb: baseRss ?? null, targetMb: TARGETS.rssMb },
  });

  // The undici keep-alive effect, shown on the baseline alone.
  const keepAlive = ratioRow("undici effect: openai script built-in fetch / node:http fetch", builtin, nodeHttp, undefined);
  rows.push({ ...keepAlive, data: { ...keepAlive.data, extraMs: builtin.median - nodeHttp.median } });
  rows.push({
    name: "  of which: last output → exit, built-in / node:http",
    agent: ms(builtin.tailMedian),
    baseline: ms(nodeHttp.tailMedian),
    ratio: undefined,
    target: "—",
    pass: undefined,
    data: { builtinTailMs: builtin.tailMedian, nodeHttpTailMs: nodeHttp.tailMedian },
  });
  rows.push(ratioRow("2-turn -p: agent / openai script (node:http fetch)", agentTwo, nodeHttp, undefined));

  // The 2,000-token streamed answer: the target is on CPU time, which a loaded machine disturbs least.
  const agentLong = agentCmd("agent -p (2,000 tokens)", LONG_PROMPT, longCheck);
  const baseLong = baselineCmd("openai script (2,000 tokens, built-in fetch)", "long", "builtin", longCheck);
  const baseLongHttp = baselineCmd("openai script (2,000 tokens, node:http fetch)", "long", "node-http", longCheck);
  const long = await timeInterleaved([agentLong, baseLong, baseLongHttp], warmups, runs, { cpu: true });
  const agentStream = must(long, agentLong.label);
  rows.push(ratioRow("2,000-token stream: agent / openai script, wall", agentStream, must(long, baseLong.label), undefined));
  rows.push(
    ratioRow("2,000-token stream: agent / openai script, CPU (user + sys)", cpuFigure(agentStream), cpuFigure(must(long, baseLong.label)), TARGETS.streamCpu),
  );
  rows.push(ratioRow("  the same, CPU, vs the script with node:http fetch", cpuFigure(agentStream), cpuFigure(must(long, baseLongHttp.label)), undefined));

  // ink/react on the headless path.
  const modules: ModuleReport = await checkHeadlessModules(agentCmd("agent -p (module tracker)", TOOL_PROMPT, stdoutHas(FINAL_TEXT)), options.dist);
  rows.push({
    name: "headless -p loads ink/react",
    agent: modules.uiLoaded === "no" && !modules.detectable ? "no*" : modules.uiLoaded,
    baseline: "—",
    ratio: undefined,
    target: "no",
    pass: modules.uiLoaded === "unknown" ? undefined : modules.uiLoaded === "no",
    data: { ...modules },
  });
  return { rows, timings: new Map([...startup, ...twoTurn, ...long]), notes: moduleNotes(modules) };
}

/** What the module tracker saw, for the report's tail. */
function moduleNotes(modules: ModuleReport): string[] {
  const notes = [`\nHeadless run loaded ${modules.distLoaded.length} dist file(s) (${modules.esmCount} ES modules, ${modules.cjsCount} CommonJS):`];
  for (const d of modules.distLoaded) notes.push(`  dist/${d.file} (${d.kb.toFixed(0)} KB)${d.ui.length > 0 ? `  ← ${d.ui.join(", ")}` : ""}`);
  if (modules.uiChunksNotLoaded.length > 0) notes.push(`  not loaded, holding ink/react: ${modules.uiChunksNotLoaded.map((f) => `dist/${f}`).join(", ")}`);
  if (modules.uiOutsideDist.length > 0) notes.push(`  ink/react loaded from outside dist/: ${modules.uiOutsideDist.join(", ")}`);
  if (modules.uiLoaded === "unknown") notes.push("  (could not tell: the module tracker saw no dist/ file)");
  if (!modules.detectable) notes.push('  * no file in dist/ contains ink/react at all (yet), so this "no" could not have been "yes".');
  return notes;
}

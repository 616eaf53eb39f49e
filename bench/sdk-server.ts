/**
 * The SDK server's figures, measured by a Copilot SDK application in its own process (bench/sdk-driver.mjs,
 * the real SDK): `start()` until the handshake is answered, against `node -e 0`; and a streamed 2,000-token
 * answer through the SDK (start, create a BYOK session, sendAndWait, stop: the process gone) against the
 * same answer with `agent -p` (spawn → exit). Runs are interleaved so drift in machine load hits both alike.
 * And two clients on one session (one agent server over TCP; the second client resumes the first's session):
 * how far behind the first each streamed event reaches the second, median over the events of a run, then the
 * median of the runs.
 */
import { median, runOnce, statsOf, validate, type BenchCommand, type RunResult, type Stats } from "./measure.js";
import { ms, type Row } from "./report.js";
import { LONG_PROMPT, LONG_TAIL } from "./scenario.js";

export interface SdkBenchOptions {
  agent: string;
  /** bench/sdk-driver.mjs */
  driver: string;
  cwd: string;
  freshHome(): string;
  env(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  baseUrl: string;
  runs: number;
  warmups: number;
}

/** The driver's own timing (what the application sees), read from its JSON line. */
function driverMs(result: RunResult): number {
  const line = JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as { ms?: number; ok?: boolean };
  if (typeof line.ms !== "number" || line.ok === false) throw new Error(`bench: the SDK driver failed: ${result.stdout}${result.stderr}`);
  return line.ms;
}

function stats(values: number[]): Stats {
  return { runs: values.length, median: median(values), min: Math.min(...values), max: Math.max(...values), drainMedian: Number.NaN, tailMedian: Number.NaN };
}

async function interleave(baseline: BenchCommand, driver: BenchCommand, options: SdkBenchOptions): Promise<{ baseline: Stats; sdk: Stats }> {
  const baseRuns: RunResult[] = [];
  const sdkRuns: number[] = [];
  for (let round = 0; round < options.warmups + options.runs; round++) {
    const base = await runOnce(baseline);
    validate(baseline, base);
    const sdk = driverMs(await runOnce(driver));
    if (round < options.warmups) continue;
    baseRuns.push(base);
    sdkRuns.push(sdk);
  }
  return { baseline: statsOf(baseRuns), sdk: stats(sdkRuns) };
}

export async function benchSdkServer(options: SdkBenchOptions): Promise<Row[]> {
  const driver = (mode: "start" | "long" | "two"): BenchCommand => ({
    label: `SDK driver (${mode})`,
    args: [options.driver],
    cwd: options.cwd,
    env: () =>
      options.env({
        SDK_DRIVER_MODE: mode,
        SDK_DRIVER_AGENT: options.agent,
        SDK_DRIVER_BASE_URL: options.baseUrl,
        SDK_DRIVER_PROMPT: LONG_PROMPT,
        SDK_DRIVER_TAIL: LONG_TAIL,
        AGENT_HOME: options.freshHome(),
      }),
  });
  const nodeNoop: BenchCommand = { label: "node -e 0", args: ["-e", "0"], cwd: options.cwd, env: () => options.env({}) };
  const start = await interleave(nodeNoop, driver("start"), options);
  const startLimit = 1.5 * start.baseline.median + 50;
  const printAnswer: BenchCommand = {
    label: "agent -p (2,000 tokens)",
    args: [options.agent, "-p", LONG_PROMPT],
    cwd: options.cwd,
    env: () => options.env({ OPENAI_BASE_URL: options.baseUrl, OPENAI_API_KEY: "test", AGENT_MODEL: "bench-model", AGENT_HOME: options.freshHome() }),
    check: (result) => (result.stdout.includes(LONG_TAIL) ? undefined : "stdout is not the full long answer"),
  };
  const long = await interleave(printAnswer, driver("long"), options);
  const longRatio = long.sdk.median / long.baseline.median;
  const lags: { ms: number; p95: number; events: number }[] = [];
  for (let round = 0; round < options.warmups + options.runs; round++) {
    const result = await runOnce(driver("two"));
    driverMs(result);
    if (round >= options.warmups) lags.push(JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "{}") as { ms: number; p95: number; events: number });
  }
  const lag = median(lags.map((run) => run.ms));
  const lagP95 = median(lags.map((run) => run.p95));
  return [
    {
      name: "SDK start() → handshake answered / node -e 0",
      agent: `${ms(start.sdk.median)} (min ${start.sdk.min.toFixed(1)})`,
      baseline: `${ms(start.baseline.median)} (min ${start.baseline.min.toFixed(1)})`,
      ratio: start.sdk.median / start.baseline.median,
      target: `≤ 1.5× + 50 ms (${ms(startLimit)})`,
      pass: start.sdk.median <= startLimit,
      data: { sdk: start.sdk, node: start.baseline, limitMs: startLimit },
    },
    {
      name: "2,000-token stream: SDK (start → answer → stopped) / agent -p",
      agent: `${ms(long.sdk.median)} (min ${long.sdk.min.toFixed(1)})`,
      baseline: `${ms(long.baseline.median)} (min ${long.baseline.min.toFixed(1)})`,
      ratio: longRatio,
      target: "≤ 1.2×",
      pass: longRatio <= 1.2,
      data: { sdk: long.sdk, print: long.baseline, ratio: longRatio, targetRatio: 1.2 },
    },
    {
      name: "two SDK clients on one session: the second's events behind the first's (2,000-token answer; median / p95 per run, median of runs)",
      agent: `${lag.toFixed(2)} / ${lagP95.toFixed(2)} ms`,
      baseline: "—",
      ratio: undefined,
      target: "≤ 5 ms",
      pass: lag <= 5,
      data: { runs: lags, medianMs: lag, p95Ms: lagP95 },
    },
  ];
}

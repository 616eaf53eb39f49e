/**
 * The V8 settings of a one-shot run (src/util/one-shot-tuning.ts): the small young generation, TurboFan, Sparkplug
 * and the scavenger's worker threads off for the first second and on again after it (on a timer that holds no run
 * open), and Node's own compiler and GC flags left alone. The clock is the test's: the timer is captured, not waited for.
 */
import { describe, expect, it } from "vitest";
import { nodeOptionsOf, OPTIMISER_DELAY_MS, tuneForOneShot, tuneServerStart } from "../../src/util/one-shot-tuning.js";

function tune(nodeOptions: string[], tuning: typeof tuneForOneShot = tuneForOneShot) {
  const flags: string[] = [];
  const timers: { run: () => void; ms: number; unref: boolean }[] = [];
  const atExit: (() => void)[] = [];
  tuning({
    atExit: (run) => atExit.push(run),
    setFlags: (flag) => flags.push(flag),
    nodeOptions,
    later: (run, ms) => {
      const timer = { run, ms, unref: false };
      timers.push(timer);
      return { unref: () => (timer.unref = true) };
    },
  });
  return { flags, timers, exit: () => atExit.forEach((run) => run()) };
}

const GC_OFF = ["--no-parallel-scavenge", "--no-concurrent-array-buffer-sweeping"];
const GC_ON = ["--parallel-scavenge", "--concurrent-array-buffer-sweeping"];

describe("a one-shot run's V8 settings", () => {
  it("keeps the young generation small and turns TurboFan, Sparkplug and the scavenger's threads on only after the first second", () => {
    const { flags, timers } = tune([]);
    expect(flags).toEqual(["--semi-space-growth-factor=1", "--no-turbofan", "--no-sparkplug", ...GC_OFF]);
    expect(timers).toHaveLength(1);
    expect(timers[0]?.ms).toBe(OPTIMISER_DELAY_MS);
    expect(timers[0]?.unref).toBe(true);
    timers[0]?.run();
    expect(flags.slice(-4)).toEqual(["--turbofan", "--sparkplug", ...GC_ON]);
  });

  // V8 refuses a code cache made under other flags: the caches written at exit must carry the starting ones.
  it("turns them off again at exit, so the code caches written then match the next run's flags", () => {
    const { flags, timers, exit } = tune([]);
    timers[0]?.run();
    exit();
    expect(flags.slice(-8)).toEqual(["--turbofan", "--sparkplug", ...GC_ON, "--no-turbofan", "--no-sparkplug", ...GC_OFF]);
    const untouched = tune(["--no-opt", "--single-threaded-gc"]);
    untouched.exit();
    expect(untouched.flags).toEqual(["--semi-space-growth-factor=1"]);
  });

  it.each([["--no-opt"], ["--turbofan"], ["--jitless"], ["--no_turbofan"], ["--always-turbofan"], ["--opt"], ["--no-sparkplug"], ["--always-sparkplug"]])(
    "leaves the compiler alone when Node was given %s",
    (option) => {
      const { flags } = tune(["--enable-source-maps", option]);
      expect(flags).toEqual(["--semi-space-growth-factor=1", ...GC_OFF]);
    },
  );

  it.each([["--single-threaded-gc"], ["--parallel-scavenge"], ["--no_concurrent_array_buffer_sweeping"], ["--single-threaded"], ["--predictable"]])(
    "leaves the scavenger's threads alone when Node was given %s",
    (option) => {
      const { flags, timers } = tune([option]);
      expect(flags).toEqual(["--semi-space-growth-factor=1", "--no-turbofan", "--no-sparkplug"]);
      timers[0]?.run();
      expect(flags.slice(-2)).toEqual(["--turbofan", "--sparkplug"]);
    },
  );

  it("sets no timer when Node was given both a compiler and a GC flag", () => {
    expect(tune(["--jitless", "--single-threaded-gc"]).timers).toEqual([]);
  });

  it("does not mistake flags that only mention the compiler for a choice of one", () => {
    expect(tune(["--trace-opt", "--turbofan-filter=x", "--max-old-space-size=100"]).flags).toContain("--no-turbofan");
  });

  // The SDK's server lives long: its young generation grows as V8 sees fit; TurboFan and incremental marking wait.
  it("gives the server its first second without TurboFan or incremental marking, both back after it and off at exit", () => {
    const { flags, timers, exit } = tune([], tuneServerStart);
    expect(flags).toEqual(["--no-incremental-marking", "--no-turbofan"]);
    expect(timers.map((timer) => [timer.ms, timer.unref])).toEqual([
      [OPTIMISER_DELAY_MS, true],
      [OPTIMISER_DELAY_MS, true],
    ]);
    for (const timer of timers) timer.run();
    expect(flags.slice(2).sort()).toEqual(["--incremental-marking", "--turbofan"]);
    exit();
    expect(flags.slice(4).sort()).toEqual(["--no-incremental-marking", "--no-turbofan"]);
  });

  it.each([
    [["--no-opt"], ["--no-incremental-marking"], true],
    [["--incremental-marking"], ["--no-turbofan"], true],
    [["--no_incremental_marking", "--turbofan"], [], false],
  ])("leaves the server's choices Node was given alone (%s)", (options, expected, tuned) => {
    const deps = tune(options, (given) => {
      expect(tuneServerStart(given)).toBe(tuned);
      return tuned;
    });
    expect(deps.flags).toEqual(expected);
  });

  it("reads Node's options from the command line and NODE_OPTIONS", () => {
    const fake = { execArgv: ["--inspect"], env: { NODE_OPTIONS: " --no-opt  --max-old-space-size=64 " } } as unknown as NodeJS.Process;
    expect(nodeOptionsOf(fake)).toEqual(["--inspect", "--no-opt", "--max-old-space-size=64"]);
  });
});

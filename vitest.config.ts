import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { RUN_TAG_VARIABLE } from "./test/support/temp-dirs.js";

// The run's tag in every temp folder's name (test/support/temp-dirs.ts); the workers inherit it.
process.env[RUN_TAG_VARIABLE] ??= `${process.pid.toString(36)}${Date.now().toString(36).slice(-4)}`;

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Files run side by side: each test's server listens on port 0 and its AGENT_HOME, working folder and tmux
    // socket are its own, so no two files share anything but the CPU. vitest's default (one less than the
    // cores) would be a single worker on a 2-core machine, where an end-to-end file mostly waits for its child.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    setupFiles: ["test/setup-markdown.ts", "test/setup-temp-dirs.ts"],
    // Fails the run if it leaves a temp folder behind.
    globalSetup: ["test/temp-leak-check.ts"],
    // expect.poll waits for an event (a process gone, a file written); its bound must hold on a loaded machine
    // (vitest's default is 1 s), and a condition that never comes still fails well within the test's timeout.
    expect: { poll: { timeout: 20_000 } },
  },
});

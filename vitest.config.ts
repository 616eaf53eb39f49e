import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    setupFiles: ["test/setup-markdown.ts"],
    // expect.poll waits for an event (a process gone, a file written); its bound must hold on a loaded machine
    // (vitest's default is 1 s), and a condition that never comes still fails well within the test's timeout.
    expect: { poll: { timeout: 20_000 } },
  },
});

/**
 * The set-up the MCP tests share: an engine harness closed after each test, the environment the test MCP
 * server and the engine read (set before each test, removed after it), and temp files removed after it.
 */
import path from "node:path";
import { rmSync } from "node:fs";
import { afterEach, beforeEach } from "vitest";
import { tempDir, type Harness } from "./engine-harness.js";

export interface McpHarnessOptions {
  /** Environment set before each test. */
  env?: Record<string, string>;
  /** Makes a folder `<scratch>-…` for each test and points MCP_TEST_LOG at log.jsonl in it. */
  scratch?: string;
  /** More variables a test may set; like MCP_TEST_LOG and those of `env`, removed after each test. */
  unset?: string[];
}

export interface McpHarness {
  /** The test's engine harness; closed after the test. */
  harness: Harness | undefined;
  /** A file or folder to remove after the test. */
  removeAfter(target: string): void;
}

export function useMcpHarness(options: McpHarnessOptions = {}): McpHarness {
  let harness: Harness | undefined;
  const made: string[] = [];
  beforeEach(() => {
    if (options.scratch) {
      const scratch = tempDir(`${options.scratch}-`);
      made.push(scratch);
      process.env.MCP_TEST_LOG = path.join(scratch, "log.jsonl");
    }
    Object.assign(process.env, options.env);
  });
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
    for (const target of made.splice(0)) rmSync(target, { recursive: true, force: true });
    for (const name of ["MCP_TEST_LOG", ...Object.keys(options.env ?? {}), ...(options.unset ?? [])]) delete process.env[name];
  });
  return {
    get harness() {
      return harness;
    },
    set harness(value) {
      harness = value;
    },
    removeAfter: (target) => void made.push(target),
  };
}

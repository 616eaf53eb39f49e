/**
 * A `-p` run's program is the script dist/chunks/program.cjs, started by bin/agent.js from dist/chunks/one-shot.cjs;
 * what the script leaves to the ES module build (the subcommands, the SDK's server mode, the TUI) is imported from
 * dist/subcommands.js and dist/interactive.js when an odd command line asks for it (scripts/build.mjs). Those runs
 * answer as they would without -p. Needs dist/ (built by `npm test` before vitest runs).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/engine-harness.js";
import { agentEnv, runAgent } from "../support/run-agent.js";

function home(): { env: NodeJS.ProcessEnv; cwd: string } {
  const dir = tempDir("one-shot-entries-");
  const cwd = path.join(dir, "cwd");
  mkdirSync(cwd);
  return { env: agentEnv({ home: dir }), cwd };
}

describe("a -p command line that asks for what the program's script leaves out", () => {
  it("runs a subcommand from the ES module build, which reports its own usage errors", async () => {
    const where = home();
    const run = await runAgent(["mcp", "list", "-p", "hello"], where);
    expect(run.stderr).toContain("unknown option '-p'");
    expect(run.code).toBe(2);
    // The same subcommand without -p, started through dist/cli.js.
    const plain = await runAgent(["mcp", "list"], where);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain("No MCP servers configured");
  });

  it("reaches ACP's own check through the script", async () => {
    const run = await runAgent(["-p", "hello", "--acp"], home());
    expect(run.stderr).toContain("--acp takes its prompts and sessions from the editor: drop -p");
  });
});

/**
 * A `-p` run's program is the script dist/chunks/program.cjs, started by bin/agent.js from dist/chunks/one-shot.cjs;
 * what the script leaves to the ES module build (the subcommands, the SDK's server mode, the TUI) is imported from
 * dist/subcommands.js and dist/interactive.js when an odd command line asks for it (scripts/build.mjs). Those runs
 * answer as they would without -p. The SDK's server starts from dist/chunks/server-start.cjs, without the ES module
 * loader too (src/cli/server-start.ts). Needs dist/ (built by `npm test` before vitest runs).
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/engine-harness.js";
import { AGENT_BIN, agentEnv, runAgent } from "../support/run-agent.js";

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

describe("the SDK's server", () => {
  it("starts from its script without Node's ES module loader, and its engine answers", async () => {
    const where = home();
    const report = path.join(where.cwd, "..", "modules.json");
    const probe = path.join(where.cwd, "..", "probe.cjs");
    writeFileSync(probe, `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(report)}, JSON.stringify(process.moduleLoadList)));`);
    const server = spawn(process.execPath, ["--require", probe, AGENT_BIN, "--headless", "--stdio"], {
      env: where.env,
      cwd: where.cwd,
      stdio: ["pipe", "pipe", "inherit"],
    });
    const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
    let output = "";
    const answered = new Promise<void>((resolve) =>
      server.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('"id":2')) resolve();
      }),
    );
    // The handshake, then a method that needs the engine (loaded from server-program.cjs after the handshake).
    for (const [id, method] of [
      [1, "ping"],
      [2, "session.list"],
    ] as const) {
      const request = JSON.stringify({ jsonrpc: "2.0", id, method, params: {} });
      server.stdin.write(`Content-Length: ${Buffer.byteLength(request)}\r\n\r\n${request}`);
    }
    await answered;
    expect(output).toMatch(/"id":2,"result"|"result":\{[^]*"id":2/);
    server.stdin.end();
    expect(await exited).toBe(0);
    const loaded = JSON.parse(readFileSync(report, "utf8")) as string[];
    expect(loaded.filter((name) => /^NativeModule internal\/modules\/esm\/(load|module_job|translators)$/.test(name))).toEqual([]);
  });
});

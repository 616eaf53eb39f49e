/**
 * Ending stdio MCP servers adds no wall time to a `-p` run: a server that ignores SIGTERM is not waited for
 * (beyond a tiny bound); its process group gets SIGKILL when the agent exits.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runAgent } from "../support/run-agent.js";
import { text } from "../support/scripted-server.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";

const ws = useE2eWorkspace({ prefix: "mcp-exit", removeDirs: true });

const gone = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return /\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return true;
  }
};

describe("MCP servers at exit", () => {
  it("a stdio server that ignores SIGTERM does not hold up the end of a -p run, and is killed", async () => {
    const record = path.join(ws.home, "stubborn.txt");
    // Answers `initialize` (so the first request waits for it to be up, and trapping SIGTERM), then shrugs off SIGTERM.
    const server = { command: process.execPath, args: [path.resolve("test/support/plain-mcp-server.mjs")], env: { PLAIN_MCP_STUBBORN: record } };
    writeFileSync(path.join(ws.home, "mcp-config.json"), JSON.stringify({ mcpServers: { stubborn: server } }));
    ws.server.enqueue(text("Done without it."));
    const run = await runAgent(["-p", "hello"], { env: ws.env(), cwd: ws.cwd });
    const exitedAt = Date.now();
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Done without it.");
    const [pid, , termAt] = readFileSync(record, "utf8").trim().split(/\s+/);
    expect(Number(termAt)).toBeGreaterThan(0);
    // Waiting for the group's graceful end would take the kill delay (2 s) at least; the agent waits at most 0.1 s.
    expect(exitedAt - Number(termAt)).toBeLessThan(2_000);
    await expect.poll(() => gone(Number(pid))).toBe(true);
  });
});

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runAgent } from "../support/run-agent.js";
import { text, toolCall } from "../support/scripted-server.js";
import { stdioServer } from "../mcp/mcp-support.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";

let log: string;
const ws = useE2eWorkspace({ prefix: "mcp", removeDirs: true });
beforeEach(() => {
  log = path.join(ws.home, "mcp-calls.jsonl");
});

const env = (extra: Record<string, string> = {}) => ws.env({ MCP_TEST_LOG: log, ...extra });
const records = (): { tool: string; args: { pid?: number } }[] => {
  try {
    return readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { tool: string; args: { pid?: number } });
  } catch {
    return [];
  }
};
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("MCP in agent -p", () => {
  it("a Copilot mcp-config.json works unchanged: the tool is offered, called, and its server ends with the run", async () => {
    writeFileSync(path.join(ws.home, "mcp-config.json"), JSON.stringify({ mcpServers: { mini: stdioServer({ env: { GREETING: "${MCP_E2E_GREETING}" } }) } }));
    ws.server.enqueue(toolCall("mini-show_env", { name: "GREETING" }), text("The server said hello."));
    const run = await runAgent(["-p", "ask the server", "--allow-all-tools", "--output-format", "json"], {
      env: env({ MCP_E2E_GREETING: "hello" }),
      cwd: ws.cwd,
    });
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });
    const complete = events.find((event) => event.type === "tool.execution_complete");
    expect(complete?.data).toMatchObject({ success: true, mcpServerName: "mini", mcpToolName: "show_env", result: { content: "GREETING=hello" } });
    const pid = records().find((record) => record.tool === "started")?.args.pid as number;
    expect(pid).toBeGreaterThan(0);
    await expect.poll(() => alive(pid)).toBe(false);
  });

  it("a server that takes 3 s to start is used on its first -p run, and its tool list is cached for the next", async () => {
    writeFileSync(path.join(ws.home, "mcp-config.json"), JSON.stringify({ mcpServers: { mini: stdioServer() } }));
    ws.server.enqueue(toolCall("mini-echo_text", { text: "slow" }), text("Echoed."));
    // The server's own timer delays its start (MCP_TEST_START_DELAY_MS); the run is waited on, not the clock.
    const run = await runAgent(["-p", "echo slow", "--allow-all-tools"], { env: env({ MCP_TEST_START_DELAY_MS: "3000" }), cwd: ws.cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain("still starting");
    expect(records().map((record) => record.tool)).toEqual(["started", "ready", "echo_text"]);
    expect(readdirSync(path.join(ws.home, "mcp-cache"))).toHaveLength(1);
  });

  // A run that never calls a server whose tools are cached pays nothing for it: no process, and neither the modules
  // spawning needs nor node:crypto (the cache file's name is a digest made in JavaScript, src/util/digest.ts).
  it("a run that calls no tool of a server with a cached list starts no server and loads neither child_process nor node:crypto", async () => {
    writeFileSync(path.join(ws.home, "mcp-config.json"), JSON.stringify({ mcpServers: { mini: stdioServer() } }));
    ws.server.enqueue(text("Primed."));
    const priming = await runAgent(["-p", "hello"], { env: env(), cwd: ws.cwd });
    expect(priming.code, priming.stderr).toBe(0);
    expect(readdirSync(path.join(ws.home, "mcp-cache"))).toHaveLength(1);
    const started = records().length;
    const report = path.join(ws.home, "modules.json");
    const probe = path.join(ws.home, "probe.cjs");
    writeFileSync(probe, `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(report)}, JSON.stringify(process.moduleLoadList)));`);
    ws.server.enqueue(text("Answered."));
    const run = await runAgent(["-p", "hello again"], { env: env({ NODE_OPTIONS: `--require ${probe}` }), cwd: ws.cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(((ws.server.completionRequests.at(-1)?.body.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name)).toContain(
      "mini-echo_text",
    );
    expect(records()).toHaveLength(started);
    const loaded = JSON.parse(readFileSync(report, "utf8")) as string[];
    expect(loaded.filter((name) => /^NativeModule (child_process|crypto)$/.test(name))).toEqual([]);
  });

  it("a NAME(tool) deny rule beats --allow-all-tools, before the call reaches the server", async () => {
    ws.server.enqueue(toolCall("mini-echo_text", { text: "x" }), text("It was refused."));
    const config = JSON.stringify({ mcpServers: { mini: stdioServer() } });
    const run = await runAgent(["-p", "echo", "--allow-all-tools", "--deny-tool", "mini(echo_text)", "--additional-mcp-config", config], {
      env: env(),
      cwd: ws.cwd,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("It was refused.\n");
    const toolMessage = ws.server.completionRequests.at(-1)?.body.messages.find((message) => message.role === "tool");
    expect(String(toolMessage?.content)).toMatch(/mini\(echo_text\)/);
    expect(records().map((record) => record.tool)).not.toContain("echo_text");
  });

  it("agent mcp add/disable/remove edit mcp-config.json; a disabled or --disable-mcp-server server is not started", async () => {
    const added = await runAgent(
      [
        "mcp",
        "add",
        "mini",
        "--env",
        "A=1",
        "--tools",
        "echo_text",
        "--",
        process.execPath,
        "--import",
        "tsx",
        path.resolve("test/support/mcp-test-server.ts"),
        "--stdio",
      ],
      { env: env(), cwd: ws.cwd },
    );
    expect(added.code).toBe(0);
    const file = JSON.parse(readFileSync(path.join(ws.home, "mcp-config.json"), "utf8")) as { mcpServers: Record<string, Record<string, unknown>> };
    expect(file.mcpServers.mini).toMatchObject({
      type: "local",
      command: process.execPath,
      args: ["--import", "tsx", path.resolve("test/support/mcp-test-server.ts"), "--stdio"],
      env: { A: "1" },
      tools: ["echo_text"],
    });
    await runAgent(["mcp", "add", "--transport", "http", "remote", "http://127.0.0.1:9/mcp", "--header", "X-Key: v"], { env: env(), cwd: ws.cwd });
    const listed = await runAgent(["mcp", "list"], { env: env(), cwd: ws.cwd });
    expect(listed.stdout).toMatch(/mini \(local\)/);
    expect(listed.stdout).toMatch(/remote \(http\): http:\/\/127\.0\.0\.1:9\/mcp/);
    await runAgent(["mcp", "remove", "remote"], { env: env(), cwd: ws.cwd });
    await runAgent(["mcp", "disable", "mini"], { env: env(), cwd: ws.cwd });
    expect(
      (JSON.parse(readFileSync(path.join(ws.home, "mcp-config.json"), "utf8")) as { mcpServers: Record<string, { disabled?: boolean }> }).mcpServers,
    ).toEqual({ mini: expect.objectContaining({ disabled: true }) });
    ws.server.enqueue(text("no tools"));
    await runAgent(["-p", "hi"], { env: env(), cwd: ws.cwd });
    await runAgent(["mcp", "enable", "mini"], { env: env(), cwd: ws.cwd });
    ws.server.enqueue(text("still none"));
    await runAgent(["-p", "hi", "--disable-mcp-server", "mini"], { env: env(), cwd: ws.cwd });
    expect(records()).toEqual([]); // not even started
    for (const request of ws.server.completionRequests) {
      expect((request.body.tools as { function: { name: string } }[]).map((tool) => tool.function.name).filter((name) => name.startsWith("mini-"))).toEqual([]);
    }
  });
});

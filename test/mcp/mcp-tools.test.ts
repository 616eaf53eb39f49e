import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startHarness, tempDir, waitForEvent } from "../support/engine-harness.js";
import { serveHttp } from "../support/mcp-test-server.js";
import { text, toolCall } from "../support/scripted-server.js";
import { mcpConfig, SERVER_SCRIPT, stdioServer } from "./mcp-support.js";
import { useMcpHarness } from "../support/mcp-harness.js";

const mcp = useMcpHarness({ unset: ["MCP_TEST_STEP_GATE"] });

function calls(log: string): { tool: string }[] {
  try {
    return readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { tool: string })
      .filter((call) => call.tool !== "started");
  } catch {
    return [];
  }
}

function toolNames(index = 0): string[] {
  const tools = (mcp.harness?.server.completionRequests[index]?.body.tools ?? []) as { function: { name: string } }[];
  return tools.map((tool) => tool.function.name);
}

async function withServer(options: { extra?: Record<string, unknown>; allowAllTools?: boolean; interactive?: boolean; denyTool?: string[] } = {}) {
  const log = path.join(process.env.TMPDIR ?? "/tmp", `mcp-log-${process.pid}-${Math.random().toString(36).slice(2)}.jsonl`);
  process.env.MCP_TEST_LOG = log;
  mcp.removeAfter(log);
  mcp.harness = await startHarness({
    allowAllTools: options.allowAllTools ?? true,
    interactive: options.interactive ?? false,
    permissions: { denyTool: options.denyTool ?? [] },
    mcp: { additional: [mcpConfig({ mini: stdioServer(options.extra) })] },
  });
  return log;
}

describe("MCP servers' tools", () => {
  it("offers a stdio server's tools as <server>-<tool> with their JSON Schema, and runs a call", async () => {
    const log = await withServer();
    mcp.harness!.server.enqueue(toolCall("mini-echo_text", { text: "hi" }), text("done"));
    const result = await mcp.harness!.session.send("echo hi");
    expect(result.outcome).toBe("completed");
    expect(toolNames()).toEqual(expect.arrayContaining(["mini-echo_text", "mini-fail", "mini-count", "mini-hang"]));
    const schema = (mcp.harness!.server.completionRequests[0]?.body.tools as { function: { name: string; parameters: Record<string, unknown> } }[]).find(
      (tool) => tool.function.name === "mini-echo_text",
    );
    expect(schema?.function.parameters).toMatchObject({ type: "object", properties: { text: { type: "string" } }, required: ["text"] });
    const start = mcp.harness!.ofType("tool.execution_start")[0];
    expect(start?.data).toMatchObject({ toolName: "mini-echo_text", mcpServerName: "mini", mcpToolName: "echo_text" });
    const complete = mcp.harness!.ofType("tool.execution_complete")[0];
    expect(complete?.data).toMatchObject({ success: true, mcpServerName: "mini", mcpToolName: "echo_text", result: { content: "echo: hi" } });
    expect(complete?.data.result?.contents).toEqual([{ type: "image", data: "aGk=", mimeType: "image/png" }]);
    expect(calls(log).map((call) => call.tool)).toEqual(["echo_text"]);
  });

  it("turns an isError result into an error result", async () => {
    await withServer();
    mcp.harness!.server.enqueue(toolCall("mini-fail", {}), text("ok"));
    await mcp.harness!.session.send("fail");
    const complete = mcp.harness!.ofType("tool.execution_complete")[0];
    expect(complete?.data).toMatchObject({ success: false, error: { message: "it went wrong on purpose", code: "mcp_tool_error" } });
  });

  it("reports progress notifications as tool.execution_progress", async () => {
    // Each step waits until its progress event has arrived here (the server's step gate), however slow the machine.
    const gate = tempDir("mcp-step-gate-");
    mcp.removeAfter(gate);
    process.env.MCP_TEST_STEP_GATE = gate;
    await withServer();
    let seen = 0;
    mcp.harness!.session.subscribe((event) => {
      if (event.type === "tool.execution_progress") writeFileSync(path.join(gate, String(++seen)), "");
    });
    mcp.harness!.server.enqueue(toolCall("mini-count", { to: 3 }), text("ok"));
    await mcp.harness!.session.send("count");
    expect(mcp.harness!.ofType("tool.execution_progress").map((event) => event.data.progressMessage)).toEqual(["step 1 (1/3)", "step 2 (2/3)", "step 3 (3/3)"]);
    expect(mcp.harness!.ofType("tool.execution_complete")[0]?.data.result?.content).toBe("counted to 3");
  });

  it("cancels a call that exceeds the server's timeout, with a clear result, and tells the server", async () => {
    const log = await withServer({ extra: { timeout: 300 } });
    mcp.harness!.server.enqueue(toolCall("mini-hang", {}), text("ok"));
    await mcp.harness!.session.send("hang");
    const complete = mcp.harness!.ofType("tool.execution_complete")[0];
    expect(complete?.data).toMatchObject({ success: false, error: { code: "timeout" } });
    expect(complete?.data.error?.message).toMatch(/took longer than 0s and was cancelled/);
    await expect.poll(() => calls(log).map((call) => call.tool)).toContain("hang_cancelled");
  });

  it("refreshes the tool list on tools/list_changed", async () => {
    await withServer();
    mcp.harness!.server.enqueue(toolCall("mini-add_tool", {}), text("added"));
    await mcp.harness!.session.send("add a tool");
    expect(toolNames(0)).not.toContain("mini-late_tool");
    await expect.poll(() => mcp.harness!.session.engine.tools().names).toContain("mini-late_tool");
    mcp.harness!.server.enqueue(text("I see it"));
    await mcp.harness!.session.send("again");
    expect(toolNames(2)).toContain("mini-late_tool");
  });

  it("reports a server that crashes mid-call and goes on", async () => {
    await withServer();
    mcp.harness!.server.enqueue(toolCall("mini-crash", {}), text("it crashed"));
    const result = await mcp.harness!.session.send("crash");
    expect(result.outcome).toBe("completed");
    expect(mcp.harness!.ofType("tool.execution_complete")[0]?.data).toMatchObject({ success: false, error: { code: "mcp_server_error" } });
    await waitForEvent(mcp.harness!, (event) => event.type === "session.warning" && /MCP server mini stopped/.test(event.data.message));
    expect(mcp.harness!.session.engine.tools().names.some((name) => name.startsWith("mini-"))).toBe(false);
  });

  it("serves a streamable HTTP server's tools", async () => {
    const http = await serveHttp();
    try {
      mcp.harness = await startHarness({
        allowAllTools: true,
        mcp: { additional: [mcpConfig({ web: { type: "http", url: http.url, headers: { "X-Test": "1" } } })] },
      });
      mcp.harness.server.enqueue(toolCall("web-echo_text", { text: "over http" }), text("done"));
      await mcp.harness.session.send("echo");
      expect(mcp.harness.ofType("tool.execution_complete")[0]?.data).toMatchObject({ success: true, result: { content: "echo: over http" } });
    } finally {
      await mcp.harness?.close();
      mcp.harness = undefined;
      await http.close();
    }
  });

  it("reports a server that fails to start, and answers without it", async () => {
    mcp.harness = await startHarness({
      mcp: { additional: [mcpConfig({ broken: { command: process.execPath, args: ["-e", "process.stderr.write('no config here\\n'); process.exit(3)"] } })] },
    });
    mcp.harness.server.enqueue(text("fine"));
    const result = await mcp.harness.session.send("hello");
    expect(result.outcome).toBe("completed");
    const warning = await waitForEvent(mcp.harness, (event) => event.type === "session.warning" && /broken failed to start/.test(event.data.message));
    expect(warning.type === "session.warning" && warning.data.message).toMatch(/no config here/);
    expect(mcp.harness.session.engine.mcp?.list()[0]).toMatchObject({ name: "broken", state: "failed" });
  });

  it("reads --additional-mcp-config from @file and expands ${VAR} and $VAR in env; --secret-env-vars keeps variables out", async () => {
    process.env.MCP_TEST_GREETING = "hello from env";
    process.env.MCP_TEST_SECRET = "s3cret";
    const home = path.join(process.env.TMPDIR ?? "/tmp", `mcp-config-${process.pid}.json`);
    writeFileSync(home, mcpConfig({ mini: stdioServer({ env: { GREETING: "${MCP_TEST_GREETING}!", BARE: "$MCP_TEST_GREETING" } }) }));
    mcp.harness = await startHarness({ allowAllTools: true, mcp: { additional: [`@${home}`], secretEnvVars: ["MCP_TEST_SECRET"] } });
    mcp.harness.server.enqueue(
      toolCall("mini-show_env", { name: "GREETING" }, { id: "a" }),
      toolCall("mini-show_env", { name: "BARE" }, { id: "b" }),
      toolCall("mini-show_env", { name: "MCP_TEST_SECRET" }, { id: "c" }),
      text("done"),
    );
    await mcp.harness.session.send("env");
    rmSync(home, { force: true });
    expect(mcp.harness.ofType("tool.execution_complete").map((event) => event.data.result?.content)).toEqual([
      "GREETING=hello from env!",
      "BARE=hello from env",
      "MCP_TEST_SECRET=(unset)",
    ]);
  });

  it("puts a server's instructions in the system prompt only with --allow-all-mcp-server-instructions", async () => {
    for (const allowAllInstructions of [false, true]) {
      mcp.harness = await startHarness({ mcp: { additional: [mcpConfig({ mini: stdioServer() })], allowAllInstructions } });
      mcp.harness.server.enqueue(text("ok"));
      await mcp.harness.session.send("hi");
      const system = mcp.harness.ofType("system.message")[0]?.data.content ?? "";
      expect(system.includes("Prefer mini-echo_text for echoes."), String(allowAllInstructions)).toBe(allowAllInstructions);
      await mcp.harness.close();
      mcp.harness = undefined;
    }
  });

  it("routes a server's elicitation through the interaction broker; headless declines", async () => {
    await withServer({ interactive: true });
    mcp.harness!.server.enqueue(toolCall("mini-ask_name", {}), text("ok"));
    const run = mcp.harness!.session.send("ask");
    const requested = await waitForEvent(mcp.harness!, (event) => event.type === "elicitation.requested");
    if (requested.type !== "elicitation.requested") throw new Error("unreachable");
    expect(requested.data).toMatchObject({ message: "Your name?", elicitationSource: "mini", requestedSchema: { properties: { name: { type: "string" } } } });
    mcp.harness!.session.respond(requested.data.requestId, { action: "accept", content: { name: "Ada" } });
    await run;
    expect(mcp.harness!.ofType("tool.execution_complete")[0]?.data.result?.content).toBe("accept: Ada");
    await mcp.harness!.close();

    await withServer();
    mcp.harness!.server.enqueue(toolCall("mini-ask_name", {}), text("ok"));
    await mcp.harness!.session.send("ask");
    expect(mcp.harness!.ofType("elicitation.requested")).toEqual([]);
    expect(mcp.harness!.ofType("tool.execution_complete")[0]?.data.result?.content).toBe("decline");
  });

  it("reports a server that hangs at start-up, and keeps the session going", async () => {
    process.env.AGENT_MCP_CONNECT_TIMEOUT_MS = "300";
    try {
      mcp.harness = await startHarness({
        mcp: { additional: [mcpConfig({ stuck: { command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"] } })] },
      });
      mcp.harness.server.enqueue(text("answered"));
      expect((await mcp.harness.session.send("hello")).outcome).toBe("completed");
      const warning = await waitForEvent(mcp.harness, (event) => event.type === "session.warning" && /stuck failed to start/.test(event.data.message));
      expect(warning.type === "session.warning" && warning.data.message).toMatch(/timed out/i);
      expect(mcp.harness.session.engine.mcp?.list()[0]?.state).toBe("failed");
    } finally {
      delete process.env.AGENT_MCP_CONNECT_TIMEOUT_MS;
    }
  });

  it("ends a stdio server's whole process group when the session ends", async () => {
    const log = await withServer({ extra: { args: ["--import", "tsx", SERVER_SCRIPT, "--stdio", "--spawn-child"] } });
    await mcp.harness!.session.engine.mcp?.waitForStartup(20_000);
    await expect.poll(() => readFileSync(log, "utf8")).toContain('"child"');
    const pids = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { tool: string; args: { pid?: number } })
      .filter((entry) => entry.tool === "started" || entry.tool === "child")
      .map((entry) => entry.args.pid as number);
    expect(pids).toHaveLength(2);
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(pids.every(alive)).toBe(true);
    await mcp.harness!.close();
    mcp.harness = undefined;
    await expect.poll(() => pids.filter(alive)).toEqual([]);
  });
});

import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startHarness, tempDir, waitForEvent } from "../support/engine-harness.js";
import { text, toolCall } from "../support/scripted-server.js";
import { mcpConfig, stdioServer } from "./mcp-support.js";
import { useMcpHarness } from "../support/mcp-harness.js";

const mcp = useMcpHarness({ unset: ["MCP_TEST_WAIT_FOR", "AGENT_MCP_DEFERRED_START_MS"] });

const config = mcpConfig({ mini: stdioServer() });

function toolNames(index: number): string[] {
  const tools = (mcp.harness?.server.completionRequests[index]?.body.tools ?? []) as { function: { name: string } }[];
  return tools.map((tool) => tool.function.name);
}

/** A home where the server ran once (the first run ever waits for it, then caches its list). */
async function primedHome(): Promise<{ home: string; cacheFile: string }> {
  const home = tempDir("agent-home-");
  mcp.removeAfter(home);
  mcp.harness = await startHarness({ home, mcp: { additional: [config] } });
  mcp.harness.server.enqueue(text("hello"));
  await mcp.harness.session.send("hi");
  expect(toolNames(0)).toContain("mini-echo_text");
  await mcp.harness.close();
  mcp.harness = undefined;
  const files = readdirSync(path.join(home, "mcp-cache"));
  expect(files).toHaveLength(1);
  return { home, cacheFile: path.join(home, "mcp-cache", files[0] as string) };
}

function records(log: string): string[] {
  return existsSync(log)
    ? readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { tool: string }).tool)
    : [];
}

describe("the MCP tool cache", () => {
  it("offers cached tools in the first request without waiting for the server; a call waits for it", async () => {
    const { home, cacheFile } = await primedHome();
    const cached = JSON.parse(readFileSync(cacheFile, "utf8")) as { tools: { name: string; annotations?: unknown; inputSchema: unknown }[] };
    expect(cached.tools.find((tool) => tool.name === "echo_text")).toMatchObject({ annotations: { readOnlyHint: true }, inputSchema: { type: "object" } });

    const scratch = tempDir("mcp-cache-test-");
    mcp.removeAfter(scratch);
    const marker = path.join(scratch, "go");
    const log = path.join(scratch, "log.jsonl");
    process.env.MCP_TEST_WAIT_FOR = marker;
    process.env.MCP_TEST_LOG = log;
    mcp.harness = await startHarness({ home, allowAllTools: true, mcp: { additional: [config] } });
    mcp.harness.server.enqueue(toolCall("mini-echo_text", { text: "hi" }), text("done"));
    const sent = mcp.harness.session.send("echo hi");
    await waitForEvent(mcp.harness, (event) => event.type === "tool.execution_start" && event.data.toolName === "mini-echo_text");
    // The request went out, with the server's tools, while the server was still starting.
    expect(toolNames(0)).toEqual(expect.arrayContaining(["mini-echo_text", "mini-count"]));
    expect(records(log)).not.toContain("ready");
    expect(mcp.harness.ofType("session.warning").filter((event) => /still starting/.test(event.data.message))).toEqual([]);
    const before = mcp.harness.events.length;
    await mcp.harness.session.engine.dispatch({ type: "input", text: "/mcp" });
    const said = mcp.harness.events.slice(before).map((event) => (event.data as { message?: string }).message ?? "");
    expect(said.join("\n")).toMatch(/mini \(stdio\) · starting · 9 tools \(from its last run\)/);
    writeFileSync(marker, "");
    const result = await sent;
    expect(result.outcome).toBe("completed");
    expect(mcp.harness.ofType("tool.execution_complete")[0]?.data).toMatchObject({ success: true, result: { content: "echo: hi" } });
    expect(records(log)).toEqual(expect.arrayContaining(["ready", "echo_text"]));
  });

  it("replaces a cached list that differs from the live one, in the tool set and in the file", async () => {
    const { home, cacheFile } = await primedHome();
    writeFileSync(cacheFile, JSON.stringify({ tools: [{ name: "old_tool", description: "Gone now", inputSchema: { type: "object" } }] }));
    process.env.AGENT_MCP_DEFERRED_START_MS = "0";
    mcp.harness = await startHarness({ home, mcp: { additional: [config] } });
    mcp.harness.server.enqueue(text("first"));
    await mcp.harness.session.send("one");
    expect(toolNames(0)).toContain("mini-old_tool");
    expect(toolNames(0)).not.toContain("mini-echo_text");
    await expect.poll(() => mcp.harness!.session.engine.tools().names, { timeout: 20_000 }).toContain("mini-echo_text");
    expect(mcp.harness.session.engine.tools().names).not.toContain("mini-old_tool");
    mcp.harness.server.enqueue(text("second"));
    await mcp.harness.session.send("two");
    expect(toolNames(1)).toContain("mini-echo_text");
    expect(toolNames(1)).not.toContain("mini-old_tool");
    const rewritten = JSON.parse(readFileSync(cacheFile, "utf8")) as { tools: { name: string }[] };
    expect(rewritten.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["echo_text", "count"]));
    expect(rewritten.tools.map((tool) => tool.name)).not.toContain("old_tool");
  });

  it("keys the cache by the server's configuration: a changed command starts without one", async () => {
    const { home } = await primedHome();
    const scratch = tempDir("mcp-cache-test-");
    mcp.removeAfter(scratch);
    const log = path.join(scratch, "log.jsonl");
    process.env.MCP_TEST_LOG = log;
    mcp.harness = await startHarness({ home, mcp: { additional: [mcpConfig({ mini: stdioServer({ timeout: 5000 }) })] } });
    mcp.harness.server.enqueue(text("hello"));
    await mcp.harness.session.send("hi");
    // No cached list for this configuration: the first request waited for the server, as on a first run.
    expect(records(log)).toContain("started");
    expect(toolNames(0)).toContain("mini-echo_text");
    expect(readdirSync(path.join(home, "mcp-cache"))).toHaveLength(2);
  });
});

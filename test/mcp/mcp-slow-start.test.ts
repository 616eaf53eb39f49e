/**
 * A server that is slow to start is still usable: the first prompt waits for a server whose tools are not
 * known yet, and any prompt for a server it names, each up to the server's start timeout (`startupTimeout`);
 * one that misses it is reported with the setting that gives it longer. The test server's slow start is its
 * own timer (MCP_TEST_START_DELAY_MS); the tests wait on the session, never on the clock. No
 * AGENT_MCP_STARTUP_WAIT_MS here: what is tested is the wait without it.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startHarness, tempDir } from "../support/engine-harness.js";
import { useMcpHarness } from "../support/mcp-harness.js";
import { text, toolCall } from "../support/scripted-server.js";
import { mcpConfig, stdioServer } from "./mcp-support.js";

const mcp = useMcpHarness({ scratch: "mcp-slow", unset: ["MCP_TEST_START_DELAY_MS", "AGENT_MCP_DEFERRED_START_MS", "AGENT_MCP_STARTUP_WAIT_MS"] });

function toolNames(index: number): string[] {
  const tools = (mcp.harness?.server.completionRequests[index]?.body.tools ?? []) as { function: { name: string } }[];
  return tools.map((tool) => tool.function.name);
}

const warnings = (): string[] => (mcp.harness?.ofType("session.warning") ?? []).map((event) => event.data.message);

/** A home whose tool cache for `mini` holds only `old_tool` (as if the server offered just that last time). */
async function homeWithStaleCache(): Promise<string> {
  const home = tempDir("mcp-slow-home-");
  mcp.removeAfter(home);
  mcp.harness = await startHarness({ home, mcp: { additional: [mcpConfig({ mini: stdioServer() })] } });
  mcp.harness.server.enqueue(text("primed"));
  await mcp.harness.session.send("hi");
  await mcp.harness.close();
  mcp.harness = undefined;
  const [file] = readdirSync(path.join(home, "mcp-cache"));
  writeFileSync(
    path.join(home, "mcp-cache", file as string),
    JSON.stringify({ tools: [{ name: "old_tool", description: "Gone", inputSchema: { type: "object" } }] }),
  );
  return home;
}

describe("a slow-starting MCP server", () => {
  it("is waited for on its first run (no cached list) beyond the old 1.5 s bound, and its tool is called", async () => {
    process.env.MCP_TEST_START_DELAY_MS = "2500";
    mcp.harness = await startHarness({ allowAllTools: true, mcp: { additional: [mcpConfig({ mini: stdioServer() })] } });
    mcp.harness.server.enqueue(toolCall("mini-echo_text", { text: "late" }), text("done"));
    const result = await mcp.harness.session.send("echo late");
    expect(result.outcome).toBe("completed");
    expect(toolNames(0)).toContain("mini-echo_text");
    expect(mcp.harness.ofType("tool.execution_complete")[0]?.data).toMatchObject({ success: true, result: { content: "echo: late" } });
    expect(warnings()).toEqual([]);
  });

  it("that misses its startupTimeout is reported with the setting that gives it longer, and the session goes on", async () => {
    process.env.MCP_TEST_START_DELAY_MS = "60000";
    mcp.harness = await startHarness({ mcp: { additional: [mcpConfig({ mini: stdioServer({ startupTimeout: 300 }) })] } });
    mcp.harness.server.enqueue(text("answered"));
    expect((await mcp.harness.session.send("hello")).outcome).toBe("completed");
    const warning = warnings().find((message) => message.includes("mini failed to start"));
    expect(warning).toMatch(/timed out after 0\.3 s starting; to wait longer, set "startupTimeout" \(milliseconds\) for mini in --additional-mcp-config/);
    // Reported before the request went out without it.
    expect(mcp.harness.types().indexOf("session.warning")).toBeLessThan(mcp.harness.types().indexOf("assistant.turn_start"));
    expect(toolNames(0)).not.toContain("mini-echo_text");
  });

  it.each(["now ask mini for it", "call mini-echo_text please"])("with a cached list is not waited for, until a prompt names it: %s", async (prompt) => {
    const home = await homeWithStaleCache();
    // It would not start on its own during the test: only the prompt that names it starts it.
    process.env.AGENT_MCP_DEFERRED_START_MS = "600000";
    process.env.MCP_TEST_START_DELAY_MS = "300";
    mcp.harness = await startHarness({ home, mcp: { additional: [mcpConfig({ mini: stdioServer() })] } });
    mcp.harness.server.enqueue(text("first"), text("second"));
    await mcp.harness.session.send("hello");
    // The cached list was offered at once; the server was not started.
    expect(toolNames(0), prompt).toContain("mini-old_tool");
    expect(mcp.harness.session.engine.mcp?.list()[0]?.state).toBe("starting");
    await mcp.harness.session.send(prompt);
    // The named server was started and waited for: the request carries its live list.
    expect(toolNames(1), prompt).toContain("mini-echo_text");
    expect(toolNames(1), prompt).not.toContain("mini-old_tool");
  });

  it("a prompt that does not name it, or names another word that contains it, does not wait", async () => {
    const home = await homeWithStaleCache();
    process.env.AGENT_MCP_DEFERRED_START_MS = "600000";
    mcp.harness = await startHarness({ home, mcp: { additional: [mcpConfig({ mini: stdioServer() })] } });
    mcp.harness.server.enqueue(text("first"), text("second"));
    await mcp.harness.session.send("hello");
    await mcp.harness.session.send("minimise the diff, then run semi-mini tests");
    expect(toolNames(1)).toContain("mini-old_tool");
    expect(mcp.harness.session.engine.mcp?.list()[0]?.state).toBe("starting");
  });

  it("an interrupt ends the wait: the prompt goes on without the server, and the warning says why", async () => {
    process.env.MCP_TEST_START_DELAY_MS = "60000";
    mcp.harness = await startHarness({ mcp: { additional: [mcpConfig({ mini: stdioServer() })] } });
    mcp.harness.server.enqueue(text("answered"));
    const sent = mcp.harness.session.send("hello");
    // The server has started (and sits in its 60 s delay): the prompt is waiting for it.
    await expect.poll(() => readFileSync(process.env.MCP_TEST_LOG as string, "utf8")).toContain('"started"');
    // Busy, so the TUI's Esc sends the interrupt.
    expect(mcp.harness.session.engine.busy).toBe(true);
    await mcp.harness.session.engine.dispatch({ type: "interrupt" });
    expect((await sent).outcome).toBe("completed");
    expect(warnings().find((message) => message.includes("mini still starting"))).toMatch(/the wait was interrupted/);
    expect(toolNames(0)).not.toContain("mini-echo_text");
  });

  it("AGENT_MCP_STARTUP_WAIT_MS caps the wait, and the warning names it", async () => {
    process.env.MCP_TEST_START_DELAY_MS = "60000";
    process.env.AGENT_MCP_STARTUP_WAIT_MS = "200";
    mcp.harness = await startHarness({ mcp: { additional: [mcpConfig({ mini: stdioServer() })] } });
    mcp.harness.server.enqueue(text("answered"));
    expect((await mcp.harness.session.send("hello")).outcome).toBe("completed");
    expect(warnings().find((message) => message.includes("mini still starting"))).toMatch(
      /going on without its tools for now \(they join when ready; AGENT_MCP_STARTUP_WAIT_MS limits this wait to 0\.2 s: unset it to wait up to each server's "startupTimeout"\)/,
    );
    expect(mcp.harness.types().indexOf("session.warning")).toBeLessThan(mcp.harness.types().indexOf("assistant.turn_start"));
    expect(mcp.harness.session.engine.mcp?.list()[0]?.state).toBe("starting");
  });
});

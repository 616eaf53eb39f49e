import { describe, expect, it } from "vitest";
import { startHarness, waitForEvent } from "../support/engine-harness.js";
import { mcpConfig, stdioServer } from "./mcp-support.js";
import { useMcpHarness } from "../support/mcp-harness.js";

const mcp = useMcpHarness();

async function run(line: string): Promise<string> {
  const before = mcp.harness!.events.length;
  await mcp.harness!.session.engine.dispatch({ type: "input", text: line });
  const said = mcp.harness!.events.slice(before).filter((event) => event.type === "session.info" || event.type === "session.warning");
  return said.map((event) => (event.data as { message: string }).message).join("\n");
}

describe("/mcp", () => {
  it("lists, shows, disables, enables and reloads the session's servers", async () => {
    mcp.harness = await startHarness({ mcp: { additional: [mcpConfig({ mini: stdioServer() })] } });
    await mcp.harness.session.engine.mcp?.waitForStartup(20_000);
    expect(await run("/mcp")).toMatch(/mini \(stdio\) · 9 tools/);
    const shown = await run("/mcp show mini");
    expect(shown).toMatch(/tools: .*mini-echo_text/);
    expect(shown).toMatch(/mini server starting/); // the stderr tail
    expect(await run("/mcp disable mini")).toMatch(/disabled for this session/);
    expect(mcp.harness.session.engine.tools().names.some((name) => name.startsWith("mini-"))).toBe(false);
    expect(await run("/mcp")).toMatch(/mini \(stdio\) · disabled/);
    await run("/mcp enable mini");
    await mcp.harness.session.engine.mcp?.waitForStartup(20_000);
    expect(mcp.harness.session.engine.tools().names).toContain("mini-echo_text");
    expect(await run("/mcp reload")).toMatch(/1 of 1 connected/);
    expect(await run("/mcp show nope")).toMatch(/no MCP server named nope/);
  });

  it("says how to add a server when none is configured", async () => {
    mcp.harness = await startHarness();
    expect(await run("/mcp")).toMatch(/agent mcp add/);
  });
});

describe("MCP commands", () => {
  const told = (from: number) =>
    mcp.harness!.events.slice(from).flatMap((event) => {
      if (event.type === "session.mcp_servers_loaded") return [`loaded ${event.data.servers.map((server) => `${server.name}:${server.status}`).join(",")}`];
      if (event.type === "session.mcp_server_status_changed") return [`${event.data.serverName} ${event.data.status}${event.data.error ? " (error)" : ""}`];
      return [];
    });

  it("are commands told by Copilot's events: loaded at the start and after a reload, each change after that", async () => {
    mcp.harness = await startHarness({ mcp: { additional: [mcpConfig({ mini: stdioServer() })] } });
    const engine = mcp.harness.session.engine;
    await engine.mcp?.waitForStartup(20_000);
    expect(told(0)).toEqual(["loaded mini:pending", "mini connected"]);
    expect(mcp.harness.events.find((event) => event.type === "session.mcp_servers_loaded")?.data).toMatchObject({
      servers: [{ name: "mini", status: "pending", transport: "stdio" }],
    });

    let from = mcp.harness.events.length;
    expect(await engine.dispatch({ type: "disable_mcp_server", server: "mini" })).toBeUndefined();
    expect(told(from)).toEqual(["mini disabled"]);
    expect(engine.tools().names.some((name) => name.startsWith("mini-"))).toBe(false);

    from = mcp.harness.events.length;
    expect(await engine.dispatch({ type: "enable_mcp_server", server: "mini" })).toBeUndefined();
    // Its tools are known from its last run: nothing waits for it, so the test waits for its event.
    await waitForEvent(
      mcp.harness,
      (event) => event.type === "session.mcp_server_status_changed" && event.data.status === "connected" && mcp.harness!.events.indexOf(event) >= from,
    );
    expect(told(from)).toEqual(["mini pending", "mini connected"]);

    from = mcp.harness.events.length;
    expect(await engine.dispatch({ type: "reload_mcp_servers" })).toBeUndefined();
    expect(told(from)).toEqual(["loaded mini:pending", "mini connected"]);

    from = mcp.harness.events.length;
    expect(await engine.dispatch({ type: "disable_mcp_server", server: "nope" })).toMatch(/no MCP server named nope\. Servers: mini/);
    expect(told(from)).toEqual([]);
  });

  it("refuse, saying how to add one, when no server is configured", async () => {
    mcp.harness = await startHarness();
    expect(await mcp.harness.session.engine.dispatch({ type: "reload_mcp_servers" })).toMatch(/agent mcp add/);
    expect(await mcp.harness.session.engine.dispatch({ type: "enable_mcp_server", server: "x" })).toMatch(/agent mcp add/);
  });
});

import { describe, expect, it } from "vitest";
import { startHarness } from "../support/engine-harness.js";
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
    expect(await run("/mcp")).toMatch(/mini \(stdio\) · 8 tools/);
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

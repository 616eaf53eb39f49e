/**
 * --available-tools and --excluded-tools reach every tool the model can be offered: the subagent tools and
 * MCP tools too (by their full name, `server/tool` or `server/*`), `*` for all, and the SDK's source-qualified
 * patterns (`builtin:<name>`, `mcp:<name>`, `custom:<name>`, each also with `*`).
 */
import { describe, expect, it } from "vitest";
import { startHarness } from "../support/engine-harness.js";
import { text } from "../support/scripted-server.js";
import { useMcpHarness } from "../support/mcp-harness.js";
import { mcpConfig, stdioServer } from "../mcp/mcp-support.js";

const mcp = useMcpHarness();

async function offered(filter: { availableTools?: string[]; excludedTools?: string[] }, withMcp = false): Promise<string[]> {
  mcp.harness = await startHarness({
    permissions: filter,
    ...(withMcp ? { mcp: { additional: [mcpConfig({ mini: stdioServer() })] } } : {}),
  });
  mcp.harness.server.enqueue(text("ok"));
  await mcp.harness.session.send("hi");
  const tools = (mcp.harness.server.completionRequests[0]?.body.tools ?? []) as { function: { name: string } }[];
  return tools.map((tool) => tool.function.name).sort();
}

describe("the tool filter flags", () => {
  it("an excluded task tool (and the other agent tools) is not offered", async () => {
    const names = await offered({ excludedTools: ["task", "read_agent", "write_agent", "list_agents"] });
    for (const name of ["task", "read_agent", "write_agent", "list_agents"]) expect(names).not.toContain(name);
    expect(names).toContain("view");
  });

  it("--available-tools may name the task tool; nothing else is offered", async () => {
    expect(await offered({ availableTools: ["task", "view"] })).toEqual(["task", "view"]);
  });

  it("given no names, --available-tools offers no tool; `*` offers them all", async () => {
    expect(await offered({ availableTools: [] })).toEqual([]);
    await mcp.harness?.close();
    const all = await offered({ availableTools: ["*"] });
    expect(all).toEqual(expect.arrayContaining(["bash", "view", "task", "read_agent"]));
  });

  it("names MCP tools by their full name, as server/tool, or server/*", async () => {
    const excluded = await offered({ excludedTools: ["mini-fail", "mini/count"] }, true);
    expect(excluded).toContain("mini-echo_text");
    expect(excluded).not.toContain("mini-fail");
    expect(excluded).not.toContain("mini-count");
    await mcp.harness?.close();
    const only = await offered({ availableTools: ["mini/*", "view"] }, true);
    expect(only).toContain("view");
    expect(only).toContain("mini-hang");
    expect(only.filter((name) => !name.startsWith("mini-"))).toEqual(["view"]);
  });

  it("reads the SDK's source patterns: builtin:<name>, builtin:*, mcp:*", async () => {
    const some = await offered({ availableTools: ["builtin:view", "mcp:*"] }, true);
    expect(some).toContain("view");
    expect(some).toContain("mini-echo_text");
    expect(some.filter((name) => !name.startsWith("mini-"))).toEqual(["view"]);
    await mcp.harness?.close();
    const noBuiltins = await offered({ excludedTools: ["builtin:*"] }, true);
    expect(noBuiltins.length).toBeGreaterThan(0);
    expect(noBuiltins.every((name) => name.startsWith("mini-"))).toBe(true);
    await mcp.harness?.close();
    // custom: names a client's own tools, so it names none of these.
    expect(await offered({ availableTools: ["custom:*", "custom:view"] })).toEqual([]);
  });
});

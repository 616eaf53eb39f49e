/**
 * settings.json `mcp.autoApproveReadOnly`: MCP tools their server marks read-only (annotations.readOnlyHint)
 * run without asking, only when the user opts in; deny and ask rules still win.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Settings } from "../../src/config/settings.js";
import type { PermissionFlags } from "../../src/permissions/policy.js";
import type { AgentMode } from "../../src/protocol/events/index.js";
import { startHarness } from "../support/engine-harness.js";
import { text, toolCall } from "../support/scripted-server.js";
import { mcpConfig, stdioServer } from "./mcp-support.js";
import { useMcpHarness } from "../support/mcp-harness.js";

const mcp = useMcpHarness({ scratch: "mcp-read-only" });

function called(): string[] {
  try {
    return readFileSync(process.env.MCP_TEST_LOG as string, "utf8")
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { tool: string }).tool)
      .filter((tool) => tool !== "started");
  } catch {
    return [];
  }
}

/** A `-p` session (nobody to ask) that calls the read-only echo_text, then show_env (no hint). */
async function run(settings: Settings, permissions: Partial<PermissionFlags> = {}, mode?: AgentMode) {
  mcp.harness = await startHarness({ settings, permissions, mode, mcp: { additional: [mcpConfig({ mini: stdioServer() })] } });
  mcp.harness.server.enqueue(toolCall("mini-echo_text", { text: "hi" }, { id: "a" }), toolCall("mini-show_env", { name: "HOME" }, { id: "b" }), text("done"));
  await mcp.harness.session.send("go");
  const [echo, env] = mcp.harness.ofType("tool.execution_complete");
  return { echo: echo?.data, env: env?.data };
}

describe("auto-approving read-only MCP tools", () => {
  it("is off by default: a read-only tool still needs a person", async () => {
    const { echo } = await run({});
    expect(echo).toMatchObject({ success: false });
    expect(echo?.error?.message).toMatch(/--allow-tool/);
    expect(called()).toEqual([]);
  });

  it("on: the read-only tool runs without asking; a tool without the hint still needs a person", async () => {
    const { echo, env } = await run({ mcp: { autoApproveReadOnly: true } });
    expect(echo).toMatchObject({ success: true, result: { content: "echo: hi" } });
    expect(env).toMatchObject({ success: false });
    expect(env?.error?.message).toMatch(/--allow-tool/);
    expect(called()).toEqual(["echo_text"]);
    expect(mcp.harness!.session.engine.permissionSummary.broadRules.join(" ")).toMatch(/read-only MCP tools/);
  });

  it("names servers: a server not named is not covered", async () => {
    const { echo } = await run({ mcp: { autoApproveReadOnly: ["other"] } });
    expect(echo).toMatchObject({ success: false });
    const named = await (async () => {
      await mcp.harness!.close();
      mcp.harness = undefined;
      return run({ mcp: { autoApproveReadOnly: ["mini"] } });
    })();
    expect(named.echo).toMatchObject({ success: true });
  });

  it("deny rules still win, and so do ask rules", async () => {
    const { echo } = await run({ mcp: { autoApproveReadOnly: true } }, { denyTool: ["mini(echo_text)"] });
    expect(echo).toMatchObject({ success: false, error: { code: "denied-by-rules" } });
    await mcp.harness!.close();
    mcp.harness = undefined;
    const asked = await run({ mcp: { autoApproveReadOnly: true }, permissions: { ask: ["mini"] } });
    expect(asked.echo).toMatchObject({ success: false });
    expect(called()).toEqual([]);
  });

  it("in plan mode only the tool its server marks read-only runs, even under --allow-all-tools", async () => {
    const { echo, env } = await run({}, { allowAllTools: true }, "plan");
    expect(echo).toMatchObject({ success: true, result: { content: "echo: hi" } });
    expect(env).toMatchObject({ success: false, error: { code: "denied-by-rules" } });
    expect(env?.error?.message).toMatch(/^In plan mode an MCP tool runs only when its server marks it read-only \(readOnlyHint\)/);
    expect(env?.error?.message).toContain("exit_plan_mode");
    expect(called()).toEqual(["echo_text"]);
  });
});

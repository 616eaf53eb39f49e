import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { PermissionFlags } from "../../src/permissions/policy.js";
import { startHarness, waitForEvent, type Harness } from "../support/engine-harness.js";
import { text, toolCall } from "../support/scripted-server.js";
import { mcpConfig, stdioServer } from "./mcp-support.js";
import { useMcpHarness } from "../support/mcp-harness.js";

let log = "";
const mcp = useMcpHarness();

function calledTools(): string[] {
  try {
    return readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { tool: string }).tool)
      .filter((tool) => tool !== "started");
  } catch {
    return [];
  }
}

async function start(permissions: Partial<PermissionFlags>, interactive = false): Promise<Harness> {
  log = path.join(process.env.TMPDIR ?? "/tmp", `mcp-perm-${process.pid}-${Math.random().toString(36).slice(2)}.jsonl`);
  process.env.MCP_TEST_LOG = log;
  mcp.removeAfter(log);
  mcp.harness = await startHarness({ interactive, permissions, mcp: { additional: [mcpConfig({ mini: stdioServer() })] } });
  return mcp.harness;
}

describe("MCP calls and the permission gate", () => {
  it("a NAME(tool) deny rule beats --allow-all-tools; the server's other tools still run", async () => {
    const h = await start({ allowAllTools: true, denyTool: ["mini(echo_text)"] });
    h.server.enqueue(toolCall("mini-echo_text", { text: "no" }, { id: "a" }), toolCall("mini-show_env", { name: "HOME" }, { id: "b" }), text("done"));
    await h.session.send("go");
    const [denied, allowed] = h.ofType("tool.execution_complete");
    expect(denied?.data).toMatchObject({ success: false, error: { code: "denied-by-rules" } });
    expect(denied?.data.error?.message).toMatch(/mini\(echo_text\)/);
    expect(allowed?.data.success).toBe(true);
    expect(calledTools()).toEqual(["show_env"]);
  });

  it("a NAME deny rule covers every tool of the server", async () => {
    const h = await start({ allowAllTools: true, denyTool: ["mini"] });
    h.server.enqueue(toolCall("mini-show_env", { name: "HOME" }), text("done"));
    await h.session.send("go");
    expect(h.ofType("tool.execution_complete")[0]?.data.success).toBe(false);
    expect(calledTools()).toEqual([]);
  });

  it("-p denies what needs a person before the call reaches the server, and says how to allow it", async () => {
    const h = await start({});
    h.server.enqueue(toolCall("mini-echo_text", { text: "hi" }), text("done"));
    await h.session.send("go");
    const complete = h.ofType("tool.execution_complete")[0];
    expect(complete?.data.success).toBe(false);
    expect(complete?.data.error?.message).toMatch(/--allow-tool/);
    expect(calledTools()).toEqual([]);
  });

  it("allow rules NAME(tool), NAME and the model-facing name each allow a call", async () => {
    for (const rule of ["mini(show_env)", "mini", "mini-show_env"]) {
      const h = await start({ allowTool: [rule] });
      h.server.enqueue(toolCall("mini-show_env", { name: "HOME" }), text("done"));
      await h.session.send("go");
      expect(h.ofType("tool.execution_complete")[0]?.data.success, rule).toBe(true);
      await h.close();
      mcp.harness = undefined;
    }
  });

  it("asks a person with the server, the tool and the arguments, and runs the call once approved", async () => {
    const h = await start({}, true);
    h.server.enqueue(toolCall("mini-echo_text", { text: "please" }), text("done"));
    const run = h.session.send("go");
    const requested = await waitForEvent(h, (event) => event.type === "permission.requested");
    if (requested.type !== "permission.requested") throw new Error("unreachable");
    expect(requested.data.permissionRequest).toMatchObject({
      kind: "mcp",
      serverName: "mini",
      toolName: "echo_text",
      args: { text: "please" },
      readOnly: true,
    });
    expect(calledTools()).toEqual([]);
    h.session.respondToPermission(requested.data.requestId, { kind: "approve-once" });
    await run;
    expect(h.ofType("tool.execution_complete")[0]?.data.result?.content).toBe("echo: please");
  });
});

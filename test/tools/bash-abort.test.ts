import { describe, expect, it } from "vitest";
import { createShellTools, ShellManager } from "../../src/tools/bash/index.js";
import { INTERRUPTED_TOOL_TEXT } from "../../src/tools/define-tool.js";
import { findTool, isProcessAlive, livePidsInGroup, printedPid, runTool, useShellTools, waitFor } from "../support/bash-context.js";

const shells = useShellTools();

describe("abort", () => {
  it("kills the whole process group and returns what was captured", async () => {
    const command = 'sleep 100 & echo "bg1:$!"; sleep 100 & echo "bg2:$!"; echo "leader:$$"; wait';
    const running = runTool(findTool(shells.tools, "bash"), { command, description: "Sleepers", initial_wait: 600 }, shells.t.ctx);
    await waitFor(() => shells.t.partial.join("").includes("leader:"), 10_000, "the pids to be printed");
    const printed = shells.t.partial.join("");
    const pids = ["bg1", "bg2", "leader"].map((name) => printedPid(printed, name) as number);
    expect(pids.every((pid) => isProcessAlive(pid))).toBe(true);
    expect(livePidsInGroup(pids[2] as number).length).toBeGreaterThanOrEqual(3);

    shells.t.controller.abort();
    const result = await running;
    expect(result.content).toContain("leader:");
    expect(result.content.endsWith(INTERRUPTED_TOOL_TEXT)).toBe(true);
    expect(result.success).toBe(false);
    expect(result.errorCode).toBe("interrupted");

    await waitFor(() => pids.every((pid) => !isProcessAlive(pid)), 10_000, "every process to die");
    expect(livePidsInGroup(pids[2] as number)).toEqual([]);
    expect(shells.manager.list()).toEqual([]);
  });

  it("escalates to SIGKILL when the command ignores SIGTERM", async () => {
    shells.manager = new ShellManager({ killGraceMs: 300 });
    shells.tools = createShellTools(shells.manager);
    const command = "trap '' TERM; echo \"leader:$$\"; while true; do sleep 0.05; done";
    const running = runTool(findTool(shells.tools, "bash"), { command, description: "Stubborn", initial_wait: 600 }, shells.t.ctx);
    await waitFor(() => shells.t.partial.join("").includes("leader:"), 10_000, "the pid to be printed");
    const leader = printedPid(shells.t.partial.join(""), "leader") as number;

    shells.t.controller.abort();
    const result = await running;
    expect(result.content.endsWith(INTERRUPTED_TOOL_TEXT)).toBe(true);
    await waitFor(() => !isProcessAlive(leader), 10_000, "the stubborn shell to die");
    expect(shells.manager.get("1")).toBeUndefined();
  });
});

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AnyTool } from "../../src/tools/define-tool.js";
import { createShellTools, ShellManager } from "../../src/tools/bash/index.js";
import {
  findTool,
  isProcessAlive,
  livePidsInGroup,
  makeBashContext,
  printedPid,
  runTool,
  waitFor,
  type BashTestContext,
} from "../support/bash-context.js";

let manager: ShellManager;
let tools: AnyTool[];
let t: BashTestContext;

beforeEach(() => {
  manager = new ShellManager();
  tools = createShellTools(manager);
  t = makeBashContext();
});

afterEach(async () => {
  await manager.dispose();
  t.cleanup();
});

describe("abort", () => {
  it("kills the whole process group and returns what was captured", async () => {
    const command = 'sleep 100 & echo "bg1:$!"; sleep 100 & echo "bg2:$!"; echo "leader:$$"; wait';
    const running = runTool(findTool(tools, "bash"), { command, description: "Sleepers", initial_wait: 600 }, t.ctx);
    await waitFor(() => t.partial.join("").includes("leader:"), 10_000, "the pids to be printed");
    const printed = t.partial.join("");
    const pids = ["bg1", "bg2", "leader"].map((name) => printedPid(printed, name) as number);
    expect(pids.every((pid) => isProcessAlive(pid))).toBe(true);
    expect(livePidsInGroup(pids[2] as number).length).toBeGreaterThanOrEqual(3);

    t.controller.abort();
    const result = await running;
    expect(result.content).toContain("leader:");
    expect(result.content.endsWith("<command interrupted>")).toBe(true);
    expect(result.success).toBe(false);
    expect(result.errorCode).toBe("interrupted");

    await waitFor(() => pids.every((pid) => !isProcessAlive(pid)), 10_000, "every process to die");
    expect(livePidsInGroup(pids[2] as number)).toEqual([]);
    expect(manager.list()).toEqual([]);
  });

  it("escalates to SIGKILL when the command ignores SIGTERM", async () => {
    manager = new ShellManager({ killGraceMs: 300 });
    tools = createShellTools(manager);
    const command = "trap '' TERM; echo \"leader:$$\"; while true; do sleep 0.05; done";
    const running = runTool(findTool(tools, "bash"), { command, description: "Stubborn", initial_wait: 600 }, t.ctx);
    await waitFor(() => t.partial.join("").includes("leader:"), 10_000, "the pid to be printed");
    const leader = printedPid(t.partial.join(""), "leader") as number;

    t.controller.abort();
    const result = await running;
    expect(result.content.endsWith("<command interrupted>")).toBe(true);
    await waitFor(() => !isProcessAlive(leader), 10_000, "the stubborn shell to die");
    expect(manager.get("1")).toBeUndefined();
  });
});

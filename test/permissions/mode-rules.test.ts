/**
 * A mode is a ruleset in the permission decision, not a list of hidden tools: plan mode denies every write
 * but its plan file (which needs no approval), and shell commands that write; reads still work.
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../support/engine-harness.js";
import { text, toolCall } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const lastToolResult = (h: Harness) => h.ofType("tool.execution_complete").at(-1)?.data;

describe("plan mode's ruleset", () => {
  it("writes the plan file without asking and refuses every other write, even under --allow-all-tools", async () => {
    harness = await startHarness({ mode: "plan", allowAllTools: true });
    const plan = path.join(realpathSync(harness.session.dir), "plan.md");
    const other = path.join(harness.cwd, "src.ts");
    harness.server.enqueue(
      toolCall("create", { path: plan, file_text: "# Plan\n1. Do it.\n" }),
      toolCall("create", { path: other, file_text: "export {};\n" }),
      toolCall("bash", { command: "echo hi > out.txt", description: "write" }),
      toolCall("bash", { command: "ls", description: "list" }),
      text("Planned."),
    );
    await harness.session.send("plan it");
    const results = harness.ofType("tool.execution_complete").map((event) => event.data);
    expect(results[0]?.success).toBe(true);
    expect(readFileSync(plan, "utf8")).toContain("1. Do it.");
    expect(results[1]?.success).toBe(false);
    expect(results[1]?.error?.message).toContain("In plan mode nothing may be changed");
    expect(existsSync(other)).toBe(false);
    expect(results[2]?.success).toBe(false);
    expect(existsSync(path.join(harness.cwd, "out.txt"))).toBe(false);
    expect(results[3]?.success).toBe(true);
    expect(harness.ofType("permission.requested")).toHaveLength(0);
  });

  it("offers the file tools in plan mode (the rules, not a hidden tool, refuse) and lifts its rules when the mode ends", async () => {
    harness = await startHarness({ mode: "plan", allowAllTools: true });
    harness.server.enqueue(text("ok"));
    await harness.session.send("hi");
    const tools = (harness.server.completionRequests[0]?.body.tools ?? []) as { function: { name: string } }[];
    expect(tools.map((tool) => tool.function.name)).toEqual(expect.arrayContaining(["create", "edit"]));
    harness.session.setMode("interactive");
    const file = path.join(harness.cwd, "after.txt");
    harness.server.enqueue(toolCall("create", { path: file, file_text: "x" }), text("done"));
    await harness.session.send("now write");
    expect(lastToolResult(harness)?.success).toBe(true);
    expect(existsSync(file)).toBe(true);
  });

  it("tells the model what plan mode is for: plan.md, ask_user where it must, end with ask_user or exit_plan_mode", async () => {
    harness = await startHarness({ mode: "interactive", interactive: true });
    harness.session.setMode("plan");
    harness.server.enqueue(text("ok"));
    await harness.session.send("add a cache");
    const body = harness.server.completionRequests[0]?.body;
    const system = String(body?.messages[0]?.content ?? "");
    const user = String(body?.messages.at(-1)?.content ?? "");
    for (const words of ["plan.md", "ask_user", "exit_plan_mode", "todos"]) {
      expect(system).toContain(words);
      expect(user).toContain(words);
    }
    const tools = (body?.tools ?? []) as { function: { name: string } }[];
    expect(tools.map((tool) => tool.function.name)).toEqual(expect.arrayContaining(["exit_plan_mode", "ask_user"]));
  });
});

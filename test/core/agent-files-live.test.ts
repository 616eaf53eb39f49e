/**
 * Agent files added, edited or removed while a session runs are seen without a restart: `/agent` lists and
 * selects them, the task tool offers and starts them; a bad file added meanwhile is reported once.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Harness } from "../support/engine-harness.js";
import { useHarnesses } from "../support/harnesses.js";
import { text, toolCall } from "../support/scripted-server.js";

const harnesses = useHarnesses();

function writeAgent(home: string, name: string, description: string): string {
  mkdirSync(path.join(home, "agents"), { recursive: true });
  const file = path.join(home, "agents", `${name}.agent.md`);
  writeFileSync(file, `---\ndescription: ${description}\n---\nYou are ${name}.\n`);
  return file;
}

async function agentList(harness: Harness): Promise<string> {
  await harness.session.dispatch({ type: "input", text: "/agent" });
  return harness.ofType("session.info").at(-1)?.data.message ?? "";
}

const taskDescription = (harness: Harness, index: number): string => {
  const tools = (harness.server.completionRequests[index]?.body.tools ?? []) as { function: { name: string; description: string } }[];
  return tools.find((tool) => tool.function.name === "task")?.function.description ?? "";
};

describe("agent files that change while the session runs", () => {
  it("/agent lists and selects an agent added after the start, shows an edit, and drops a removed one", async () => {
    const harness = await harnesses.start();
    expect(await agentList(harness)).not.toContain("reviewer");
    const file = writeAgent(harness.home, "reviewer", "Reviews diffs");
    expect(await agentList(harness)).toContain("reviewer (user): Reviews diffs");
    writeAgent(harness.home, "reviewer", "Reviews diffs carefully, twice");
    expect(await agentList(harness)).toContain("reviewer (user): Reviews diffs carefully, twice");
    expect(harness.session.dispatch({ type: "select_agent", name: "reviewer" })).toBeUndefined();
    rmSync(file);
    expect(await agentList(harness)).not.toContain("reviewer (user)");
  });

  it("the task tool offers and starts an agent added after the first request", async () => {
    const harness = await harnesses.start({ allowAllTools: true });
    harness.server.enqueue(text("No helper yet."));
    await harness.session.send("first");
    expect(taskDescription(harness, 0)).not.toContain("- helper:");
    writeAgent(harness.home, "helper", "Helps with anything");
    harness.server.enqueue(
      toolCall("task", { description: "Ask the helper", prompt: "say hi", agent_type: "helper" }),
      text("hi from the helper"),
      text("The helper said hi."),
    );
    const result = await harness.session.send("second");
    expect(taskDescription(harness, 1)).toContain("- helper: Helps with anything");
    expect(result.finalMessage).toBe("The helper said hi.");
    expect(harness.ofType("subagent.started")[0]?.data.agentName).toBe("helper");
    expect(harness.ofType("tool.execution_complete").find((event) => event.data.toolCallId)?.data.success).toBe(true);
  });

  it("a bad file added meanwhile is reported once, not at every look", async () => {
    const harness = await harnesses.start();
    await agentList(harness);
    mkdirSync(path.join(harness.home, "agents"), { recursive: true });
    writeFileSync(path.join(harness.home, "agents", "broken.agent.md"), "no frontmatter here\n");
    await agentList(harness);
    writeAgent(harness.home, "other", "Another");
    await agentList(harness);
    const warnings = harness.ofType("session.warning").filter((event) => event.data.message.includes("broken.agent.md"));
    expect(warnings).toHaveLength(1);
  });
});

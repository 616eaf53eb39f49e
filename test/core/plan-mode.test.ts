/**
 * exit_plan_mode through the engine: the review goes out as exit_plan_mode.requested with the plan's text,
 * and each answer (autopilot, interactive, exit only, changes) does what it says to the mode and tells the
 * model so. Without a person the plan is the run's end, unless --plan --autopilot accepts it.
 */
import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { PlanApprovalReply } from "../../src/protocol/interactions.js";
import { startHarness, waitForEvent, type Harness } from "../support/engine-harness.js";
import { text, toolCall } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const planPath = (h: Harness) => path.join(realpathSync(h.session.dir), "plan.md");
const toolResults = (h: Harness) => h.ofType("tool.execution_complete").map((event) => event.data);
const toolNames = (h: Harness, request: number) =>
  ((h.server.completionRequests[request]?.body.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);

/** A planning turn: the plan written, then exit_plan_mode; the reply is given when the review is asked. */
async function reviewWith(reply: PlanApprovalReply, after: ReturnType<typeof text>[] = [text("Done.")]) {
  harness = await startHarness({ mode: "plan", interactive: true });
  const h = harness;
  h.server.enqueue(
    toolCall("create", { path: planPath(h), file_text: "# Plan\n1. Add greet.ts\n" }),
    toolCall("exit_plan_mode", { summary: "- add greet.ts", recommendedAction: "interactive" }),
    ...after,
  );
  const run = h.session.send("plan a greeting");
  const requested = await waitForEvent(h, (event) => event.type === "exit_plan_mode.requested");
  if (requested.type !== "exit_plan_mode.requested") throw new Error("unreachable");
  expect(requested.data).toMatchObject({ summary: "- add greet.ts", actions: ["autopilot", "interactive", "exit_only"], recommendedAction: "interactive" });
  expect(requested.data.planContent).toContain("1. Add greet.ts");
  expect(h.session.respond(requested.data.requestId, reply)).toBeUndefined();
  const result = await run;
  return { h, result, review: toolResults(h)[1]?.result?.content ?? "" };
}

describe("plan mode's notices and its start", () => {
  it("the system prompt, the switch notice and the tool name the plan file by its absolute path", async () => {
    harness = await startHarness({ mode: "plan", interactive: true });
    const h = harness;
    const file = path.join(h.session.dir, "plan.md");
    h.server.enqueue(text("a"), text("b"), text("c"));
    await h.session.send("one");
    const system = String(h.server.completionRequests[0]?.body.messages[0]?.content);
    expect(system).toContain(`Write the plan to ${file} (`);
    const tool = (h.server.completionRequests[0]?.body.tools as { function: { name: string; description: string } }[]).find(
      (candidate) => candidate.function.name === "exit_plan_mode",
    );
    expect(tool?.function.description).toContain(`Call it when ${file} holds`);
    // Switching back into plan mode mid-session: the one-time notice names the path too.
    h.session.setMode("interactive");
    await h.session.send("two");
    h.session.setMode("plan");
    await h.session.send("three");
    const notice = String(h.server.completionRequests[2]?.body.messages.at(-1)?.content);
    expect(notice).toContain("<mode_changed_notice>");
    expect(notice).toContain(`write the plan (problem, approach, todos, notes) to ${file},`);
  });

  it.each(["plan", "autopilot"] as const)("a session started in %s mode records the switch from interactive right after session.start", async (mode) => {
    harness = await startHarness({ mode });
    const persisted = harness.events.filter((event) => !event.ephemeral);
    expect(persisted.slice(0, 2).map((event) => [event.type, event.data])).toEqual([
      ["session.start", expect.objectContaining({ mode: "interactive" })],
      ["session.mode_changed", { previousMode: "interactive", newMode: mode }],
    ]);
    expect(harness.ofType("session.mode_changed")).toHaveLength(1);
  });

  it("a session started interactive records no switch", async () => {
    harness = await startHarness();
    expect(harness.ofType("session.mode_changed")).toHaveLength(0);
  });
});

describe("exit_plan_mode", () => {
  it("is offered in plan mode only", async () => {
    harness = await startHarness({ mode: "plan", interactive: true });
    harness.server.enqueue(text("a"), text("b"));
    await harness.session.send("one");
    harness.session.setMode("interactive");
    await harness.session.send("two");
    expect(toolNames(harness, 0)).toContain("exit_plan_mode");
    expect(toolNames(harness, 1)).not.toContain("exit_plan_mode");
  });

  it("accepted into autopilot: the mode changes and the model is told to implement now", async () => {
    const { h, review } = await reviewWith({ approved: true, selectedAction: "autopilot" }, [
      text("Implementing."),
      toolCall("task_complete", { summary: "done" }),
    ]);
    expect(h.ofType("session.mode_changed").map((event) => event.data)).toEqual([
      { previousMode: "interactive", newMode: "plan" },
      { previousMode: "plan", newMode: "autopilot" },
    ]);
    expect(review).toMatch(/^Plan approved! Exited plan mode\./);
    expect(review).toContain("autopilot");
    expect(h.session.engine.mode).toBe("autopilot");
    // The same run goes on in autopilot: its tools, and its continuation until task_complete.
    expect(toolNames(h, 2)).toContain("task_complete");
    expect(h.ofType("session.task_complete")).toHaveLength(1);
  });

  it("accepted interactively: interactive mode, implement now", async () => {
    const { h, review } = await reviewWith({ approved: true, selectedAction: "interactive" });
    expect(h.session.engine.mode).toBe("interactive");
    expect(review).toMatch(/^Plan approved! Exited plan mode\./);
    expect(review).toContain("manual approval");
  });

  it("exit only: interactive mode, and the model is told not to implement", async () => {
    const { h, review } = await reviewWith({ approved: true, selectedAction: "exit_only" });
    expect(h.session.engine.mode).toBe("interactive");
    expect(review).toContain("do not implement it");
    expect(review).not.toContain("Plan approved");
  });

  it("changes suggested: the feedback is the result and plan mode stays", async () => {
    const { h, review } = await reviewWith({ approved: false, feedback: "Use a class instead." });
    expect(h.session.engine.mode).toBe("plan");
    expect(review).toContain("Use a class instead.");
    expect(review).toContain("still in plan mode");
    // Only the switch the session started with (interactive to plan).
    expect(h.ofType("session.mode_changed")).toHaveLength(1);
    expect(h.ofType("exit_plan_mode.completed")[0]?.data).toMatchObject({ approved: false, feedback: "Use a class instead." });
  });

  it("without a person the run ends with the plan written and nothing else", async () => {
    harness = await startHarness({ mode: "plan" });
    harness.server.enqueue(
      toolCall("create", { path: planPath(harness), file_text: "# Plan\n" }),
      toolCall("exit_plan_mode", { summary: "- plan" }),
      text("never"),
    );
    const result = await harness.session.send("plan");
    expect(result.outcome).toBe("task_complete");
    expect(harness.session.engine.mode).toBe("plan");
    expect(toolResults(harness)[1]?.result?.content).toContain("Stop here");
    expect(harness.server.completionRequests).toHaveLength(2);
    expect(harness.ofType("exit_plan_mode.requested")).toHaveLength(0);
  });

  it("without a person and without a plan file, nothing is reported as written: the model is told to write it", async () => {
    for (const autoAcceptPlan of [false, true]) {
      harness = await startHarness({ mode: "plan", ...(autoAcceptPlan ? { autoAcceptPlan } : {}) });
      const h = harness;
      h.server.enqueue(toolCall("exit_plan_mode", { summary: "- nothing yet" }), text("I could not write a plan."));
      const result = await h.session.send("plan");
      const review = toolResults(h)[0];
      expect(review?.success).toBe(false);
      expect(review?.error?.message ?? review?.result?.content).toContain(`${planPath(h)} does not exist`);
      // The run is not a finished plan: no "Plan written to", no task_complete, the mode unchanged.
      expect(result.outcome).toBe("completed");
      expect(JSON.stringify(h.events)).not.toContain("Plan written");
      expect(h.ofType("session.task_complete")).toHaveLength(0);
      expect(h.session.engine.mode).toBe("plan");
      await h.close();
      harness = undefined;
    }
  });

  it("says the plan is missing when none was written", async () => {
    harness = await startHarness({ mode: "plan", interactive: true });
    const h = harness;
    h.server.enqueue(toolCall("exit_plan_mode", { summary: "- nothing" }), text("ok"));
    const run = h.session.send("plan");
    const requested = await waitForEvent(h, (event) => event.type === "exit_plan_mode.requested");
    if (requested.type !== "exit_plan_mode.requested") throw new Error("unreachable");
    expect(requested.data.planContent).toContain("No plan was written");
    expect(existsSync(planPath(h))).toBe(false);
    h.session.respond(requested.data.requestId, { approved: false });
    await run;
  });
});

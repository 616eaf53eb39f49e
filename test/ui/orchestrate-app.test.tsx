/** In the whole app over the real engine: the goal line (autopilot's objective), and commands that send a template. */
import { describe, expect, it } from "vitest";
import { useAppHarness } from "../support/app-harness.js";
import { text, toolCall } from "../support/scripted-server.js";

const app = useAppHarness();

describe("the goal line", () => {
  it("shows the objective while autopilot works toward it, and goes when autopilot is switched off", async () => {
    const { host, tui } = await app.start();
    expect(tui.frame()).not.toContain("Goal:");
    host.server.enqueue(text("Working on it."), toolCall("task_complete", { summary: "The tests pass." }));
    tui.bus.type("/autopilot make the tests pass");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("The tests pass.") && frame.includes("Ask anything"));
    const lines = tui.frame().split("\n");
    const goal = lines.findIndex((line) => line.includes("◎ Goal: make the tests pass"));
    expect(goal).toBeGreaterThan(-1);
    // Above the composer.
    expect(lines.findIndex((line, index) => index > goal && line.includes("Ask anything"))).toBeGreaterThan(goal);
    tui.bus.type("/autopilot off");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("Autopilot off."));
    expect(tui.frame()).not.toContain("Goal:");
  });
});

describe("commands that send a template", () => {
  it("show the command as typed, not the template the model gets", async () => {
    const { host, tui } = await app.start();
    host.server.enqueue(text("Dispatching the research agents."));
    tui.bus.type("/research how are hooks loaded");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("Dispatching the research agents.") && frame.includes("Ask anything"));
    expect(tui.frame()).toContain("/research how are hooks loaded");
    expect(tui.frame()).not.toContain("orchestrator");
    expect(String(host.server.completionRequests[0]?.body.messages.at(-1)?.content)).toContain("You are now the orchestrator");
  });
});

/**
 * `/autopilot <objective>`: the objective is an event (a resume and the faces see it), autopilot's
 * continuation message repeats it, and leaving autopilot clears it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AUTOPILOT_CONTINUATION } from "../../src/core/modes.js";
import { startHarness, type Harness } from "../support/engine-harness.js";
import { text, toolCall } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function input(h: Harness, line: string) {
  const result = await h.session.dispatch({ type: "input", text: line });
  if (result.kind === "prompt") await result.run;
}

describe("/autopilot <objective>", () => {
  it("records the objective, sends it as the prompt, and repeats it in the continuation", async () => {
    harness = await startHarness();
    harness.server.enqueue(text("Looking at the tests."), toolCall("task_complete", { summary: "Tests pass." }));
    await input(harness, "/autopilot make the tests pass");
    expect(harness.session.mode).toBe("autopilot");
    expect(harness.ofType("session.objective_changed").map((event) => event.data)).toEqual([{ objective: "make the tests pass" }]);
    const first = harness.server.completionRequests[0]?.body.messages.at(-1);
    expect(String(first?.content)).toContain("make the tests pass");
    const continuation = String(harness.server.completionRequests[1]?.body.messages.at(-1)?.content);
    expect(continuation).toContain(AUTOPILOT_CONTINUATION);
    expect(continuation).toContain("The objective: make the tests pass");
    expect(harness.events.find((event) => event.type === "session.objective_changed")?.ephemeral).toBeFalsy();
  });

  it("keeps the objective across a resume; leaving autopilot clears it", async () => {
    harness = await startHarness();
    harness.server.enqueue(toolCall("task_complete", { summary: "Done." }));
    await input(harness, "/autopilot ship the feature");
    const { id } = harness.session;
    harness.session.shutdown();
    const resumed = await startHarness({ server: harness.server, home: harness.home, cwd: harness.cwd, resumeId: id });
    try {
      expect(resumed.session.mode).toBe("autopilot");
      resumed.server.enqueue(text("Still going."), toolCall("task_complete", { summary: "Done." }));
      await resumed.session.send("continue");
      expect(String(resumed.server.completionRequests.at(-1)?.body.messages.at(-1)?.content)).toContain("The objective: ship the feature");
      await input(resumed, "/autopilot off");
      expect(resumed.ofType("session.objective_changed").map((event) => event.data)).toEqual([{}]);
      await input(resumed, "/autopilot on");
      expect(resumed.ofType("session.objective_changed")).toHaveLength(1);
    } finally {
      await resumed.close();
    }
  });
});

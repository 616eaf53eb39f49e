/** Plan reviews, forms and questions wait in the transcript state for any agent, until their *.completed. */
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/protocol/events/index.js";
import { reduceTranscript } from "../../src/ui/state/reduce-transcript.js";
import { initialTranscript } from "../../src/ui/state/transcript-types.js";

let counter = 0;
const event = (type: string, data: Record<string, unknown>, agentId?: string): SessionEvent =>
  ({ id: `e${++counter}`, timestamp: new Date(0).toISOString(), parentId: null, type, data, ...(agentId ? { agentId } : {}) }) as unknown as SessionEvent;
const reduce = (...events: SessionEvent[]) => events.reduce((state, next) => reduceTranscript(state, next, 0), initialTranscript({ mode: "plan", model: "m" }));

describe("pending interactions", () => {
  it("keeps each kind, a subagent's too, and drops it when completed", () => {
    const plan = event("exit_plan_mode.requested", {
      requestId: "p",
      summary: "- s",
      planContent: "# Plan",
      actions: ["autopilot"],
      recommendedAction: "autopilot",
    });
    const form = event(
      "elicitation.requested",
      { requestId: "f", message: "m?", requestedSchema: { type: "object", properties: { a: { type: "string" } }, required: ["a"] } },
      "helper-1",
    );
    const question = event("user_input.requested", { requestId: "q", question: "q?", choices: ["x"] });
    const state = reduce(plan, form, question);
    expect(state.questions.map((pending) => [pending.kind, pending.requestId, pending.agentId])).toEqual([
      ["exit_plan_mode", "p", undefined],
      ["elicitation", "f", "helper-1"],
      ["user_input", "q", undefined],
    ]);
    expect(state.lastPlan).toBe("# Plan");
    const after = [
      event("exit_plan_mode.completed", { requestId: "p", approved: true }),
      event("elicitation.completed", { requestId: "f", action: "accept" }, "helper-1"),
      event("user_input.completed", { requestId: "q" }),
    ].reduce((current, next) => reduceTranscript(current, next, 0), state);
    expect(after.questions).toEqual([]);
    expect(after.lastPlan).toBe("# Plan");
  });
});

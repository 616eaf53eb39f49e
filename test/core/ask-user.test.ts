/**
 * ask_user through the engine: a form (elicitation.requested) when a person can answer, whose answer is the
 * tool result; "decide yourself" at once without a person or in autopilot; gone with --no-ask-user.
 */
import { afterEach, describe, expect, it } from "vitest";
import { USER_NOT_AVAILABLE } from "../../src/tools/ask-user.js";
import { startHarness, waitForEvent, type Harness } from "../support/engine-harness.js";
import { text, toolCall } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const schemaOf = (h: Harness, request: number) =>
  ((h.server.completionRequests[request]?.body.tools ?? []) as { function: { name: string; parameters: { properties: Record<string, unknown> } } }[]).find(
    (tool) => tool.function.name === "ask_user",
  )?.function.parameters.properties;

const form = {
  message: "Which database?",
  requestedSchema: { type: "object", properties: { db: { type: "string", enum: ["sqlite", "postgres"] } }, required: ["db"] },
};

describe("ask_user", () => {
  it("asks a person with a form and returns the answer to the model", async () => {
    harness = await startHarness({ interactive: true });
    const h = harness;
    h.server.enqueue(toolCall("ask_user", form), text("Using postgres."));
    const run = h.session.send("set up storage");
    const requested = await waitForEvent(h, (event) => event.type === "elicitation.requested");
    if (requested.type !== "elicitation.requested") throw new Error("unreachable");
    expect(requested.data).toMatchObject({
      message: "Which database?",
      mode: "form",
      requestedSchema: { properties: { db: { enum: ["sqlite", "postgres"] } } },
    });
    h.session.respond(requested.data.requestId, { action: "accept", content: { db: "postgres" } });
    await run;
    expect(Object.keys(schemaOf(h, 0) ?? {})).toEqual(["message", "requestedSchema"]);
    const result = h.ofType("tool.execution_complete")[0]?.data.result?.content ?? "";
    expect(result).toContain('"db": "postgres"');
    expect(h.ofType("elicitation.completed")[0]?.data).toMatchObject({ action: "accept", content: { db: "postgres" } });
  });

  it("a declined form tells the model to decide", async () => {
    harness = await startHarness({ interactive: true });
    const h = harness;
    h.server.enqueue(toolCall("ask_user", form), text("ok"));
    const run = h.session.send("go");
    const requested = await waitForEvent(h, (event) => event.type === "elicitation.requested");
    if (requested.type !== "elicitation.requested") throw new Error("unreachable");
    h.session.respond(requested.data.requestId, { action: "decline" });
    await run;
    expect(h.ofType("tool.execution_complete")[0]?.data.result?.content).toContain("declined");
  });

  it("without a person, and in autopilot, is the question/choices variant that answers at once", async () => {
    for (const options of [{}, { interactive: true, mode: "autopilot" as const }]) {
      harness = await startHarness(options);
      harness.server.enqueue(
        toolCall("ask_user", { question: "Which db?", choices: ["a", "b"] }),
        text("Assuming a."),
        toolCall("task_complete", { summary: "x" }),
      );
      await harness.session.send("go");
      expect(Object.keys(schemaOf(harness, 0) ?? {})).toEqual(["question", "choices"]);
      expect(harness.ofType("tool.execution_complete")[0]?.data.result?.content).toBe(USER_NOT_AVAILABLE);
      expect(harness.ofType("elicitation.requested")).toHaveLength(0);
      await harness.close();
      harness = undefined;
    }
  });

  it("--no-ask-user removes it", async () => {
    harness = await startHarness({ interactive: true, permissions: { excludedTools: ["ask_user"] } });
    harness.server.enqueue(text("ok"));
    await harness.session.send("go");
    expect(schemaOf(harness, 0)).toBeUndefined();
  });
});

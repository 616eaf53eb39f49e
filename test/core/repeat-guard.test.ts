/**
 * The doom-loop guard against the scripted server: the third identical call in a row is not run and the
 * model is told, in every mode; a further repeat ends the run in autopilot and without a person, and asks a
 * person who is there. Polling tools are not counted; a new prompt starts the count again.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentMode } from "../../src/protocol/events/index.js";
import { canonicalArguments, REPEAT_LIMIT } from "../../src/core/runtime/repeat-guard.js";
import { startHarness, waitForEvent, type Harness, type HarnessOptions } from "../support/engine-harness.js";
import { gateTool } from "../support/gate-tool.js";
import { text, toolCall, toolCalls } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function start(options: HarnessOptions = {}): Promise<Harness> {
  harness = await startHarness(options);
  writeFileSync(path.join(harness.cwd, "notes.txt"), "alpha\n");
  return harness;
}

const view = (h: Harness, extra: Record<string, unknown> = {}) => toolCall("view", { path: path.join(h.cwd, "notes.txt"), ...extra });
const codes = (h: Harness) => h.ofType("tool.execution_complete").map((event) => (event.data.success ? "ok" : event.data.error?.code));

describe("the repeat guard", () => {
  it("sorts argument keys, so the same call written two ways is the same call", () => {
    expect(canonicalArguments({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: 3 } })).toBe(canonicalArguments({ a: { c: 3, d: [2, { e: 0, f: 1 }] }, b: 1 }));
    expect(canonicalArguments({ a: 1 })).not.toBe(canonicalArguments({ a: 2 }));
  });

  it.each<[string, AgentMode]>([
    ["interactive", "interactive"],
    ["plan", "plan"],
    ["autopilot", "autopilot"],
  ])("does not run the third identical call in a row and tells the model (%s mode)", async (_name, mode) => {
    const h = await start({ mode });
    const file = path.join(h.cwd, "notes.txt");
    h.server.enqueue(
      view(h),
      // The same arguments in another order and spelling of the JSON.
      toolCall("view", `{ "path" : ${JSON.stringify(file)} }`),
      view(h),
      mode === "autopilot" ? toolCall("task_complete", { summary: "Read it." }) : text("I will stop reading it."),
    );
    const result = await h.session.send("read notes.txt");
    expect(result.outcome).toBe(mode === "autopilot" ? "task_complete" : "completed");
    expect(codes(h).slice(0, REPEAT_LIMIT)).toEqual(["ok", "ok", "repeated_call"]);
    const told = h.ofType("tool.execution_complete")[2]?.data.error?.message;
    expect(told).toMatch(/^Not run: you have called view with the same arguments 3 times in a row.*Change your approach/);
    // The model sees it as the call's result.
    const tools = (h.server.completionRequests[3]?.body.messages ?? []).filter((message) => message.role === "tool");
    expect(String(tools.at(-1)?.content)).toBe(told);
  });

  it("counts only calls in a row: another call in between, or other arguments, start again", async () => {
    const h = await start();
    h.server.enqueue(view(h), view(h), toolCall("glob", { pattern: "*" }), view(h), view(h), view(h, { view_range: [1, 1] }), view(h), text("done"));
    await h.session.send("go");
    expect(codes(h)).toEqual(["ok", "ok", "ok", "ok", "ok", "ok", "ok"]);
  });

  it("counts identical calls of one response too", async () => {
    const h = await start();
    const call = { name: "view", arguments: { path: path.join(h.cwd, "notes.txt") } };
    h.server.enqueue(toolCalls([call, call, call]), text("done"));
    await h.session.send("go");
    expect(codes(h)).toEqual(["ok", "ok", "repeated_call"]);
  });

  it("does not count polling tools (read_bash waits for output that changes)", async () => {
    const h = await start({ allowAllTools: true });
    const poll = toolCall("read_bash", { shellId: "1", delay: 0 });
    h.server.enqueue(toolCall("bash", { command: "echo started", description: "Start", mode: "async" }), poll, poll, poll, poll, text("done"));
    await h.session.send("go");
    expect(codes(h).filter((code) => code === "repeated_call" || code === "doom_loop")).toEqual([]);
    expect(h.ofType("tool.execution_start").map((event) => event.data.toolName)).toEqual(["bash", "read_bash", "read_bash", "read_bash", "read_bash"]);
  });

  it("a new prompt starts the count again", async () => {
    const h = await start();
    h.server.enqueue(view(h), view(h), text("Read twice."), view(h), text("Read again."));
    await h.session.send("read it");
    await h.session.send("read it once more");
    expect(codes(h)).toEqual(["ok", "ok", "ok"]);
  });

  it("a person's steering message starts the count again", async () => {
    const gate = gateTool();
    const h = await start({ extraTools: [gate.tool] });
    h.server.enqueue(toolCall("gate"), toolCall("gate"), toolCall("gate"), text("done"));
    const run = h.session.send("go");
    await waitForEvent(h, (event) => event.type === "tool.execution_start");
    void h.session.dispatch({ type: "send", prompt: "try it again", delivery: "immediate" });
    gate.release();
    await run;
    expect(h.ofType("user.message").map((event) => event.data.delivery)).toEqual(["idle", "steering"]);
    expect(codes(h)).toEqual(["ok", "ok", "ok"]);
  });

  it.each<[string, HarnessOptions]>([
    ["autopilot", { mode: "autopilot", interactive: true }],
    ["no person to ask (-p)", { mode: "interactive", interactive: false }],
  ])("a further repeat ends the run with a clear reason: %s", async (_name, options) => {
    const h = await start(options);
    h.server.enqueue(view(h), view(h), view(h), view(h), text("never asked for"));
    const result = await h.session.send("read it");
    expect(result.outcome).toBe("error");
    expect(result.error?.kind).toBe("doom_loop");
    expect(result.error?.message).toBe(
      "The agent called view with the same arguments 4 times in a row, repeating it after it was told to change approach, so the run was stopped.",
    );
    expect(codes(h)).toEqual(["ok", "ok", "repeated_call", "doom_loop"]);
    expect(h.server.completionRequests).toHaveLength(4);
    expect(h.ofType("session.error").at(-1)?.data).toMatchObject({ errorType: "doom_loop", message: result.error?.message });
    expect(h.ofType("user_input.requested")).toHaveLength(0);
    // The log stays valid: the stopped call has its result, then the turn ends.
    const persisted = h.types({ persistedOnly: true, without: ["session.autopilot_stopped"] });
    expect(persisted.slice(-4)).toEqual(["tool.execution_start", "tool.execution_complete", "session.error", "assistant.turn_end"]);
    if (options.mode === "autopilot")
      expect(h.ofType("session.autopilot_stopped")[0]?.data).toMatchObject({ reason: "error", message: `Autopilot stopped: ${result.error?.message}` });
  });

  it.each([
    ["Run it anyway", "ok", "completed"],
    ["Stop the agent", "doom_loop", "error"],
  ])("with a person present, a further repeat asks: %s", async (answer, code, outcome) => {
    const h = await start({ interactive: true });
    h.server.enqueue(view(h), view(h), view(h), view(h), text("Fine."));
    const run = h.session.send("read it");
    const asked = await waitForEvent(h, (event) => event.type === "user_input.requested");
    if (asked.type !== "user_input.requested") throw new Error("unreachable");
    expect(asked.data).toMatchObject({ choices: ["Run it anyway", "Stop the agent"], allowFreeform: false });
    expect(asked.data.question).toMatch(/called view with the same arguments 4 times in a row/);
    h.session.respond(asked.data.requestId, { answer });
    const result = await run;
    expect(result.outcome).toBe(outcome);
    expect(codes(h)).toEqual(["ok", "ok", "repeated_call", code]);
    if (outcome === "error") expect(result.error?.kind).toBe("doom_loop");
  });
});

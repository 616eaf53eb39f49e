/**
 * The seams the faces rely on: one queue in the core (visible through events, held after an interrupt),
 * steering between turns, every state change as an event, answers checked by the broker, and the input
 * router that gives `/plan x`, `!cmd` and `@path` the same meaning everywhere.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RunResult } from "../../src/protocol/commands.js";
import { startHarness, waitForEvent, type Harness } from "../support/engine-harness.js";
import { hang, text, toolCall } from "../support/scripted-server.js";
import { gateTool } from "../support/gate-tool.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const lastUserText = (h: Harness) =>
  String(
    h.server.completionRequests
      .at(-1)
      ?.body.messages.filter((m) => m.role === "user")
      .at(-1)?.content ?? "",
  );

describe("the prompt queue", () => {
  it("queues a prompt sent while busy, shows it in pending_messages.modified, and runs it after", async () => {
    const gate = gateTool();
    harness = await startHarness({ extraTools: [gate.tool] });
    harness.server.enqueue(toolCall("gate", {}), text("First done."), text("Second done."));
    const first = harness.session.send("first");
    await waitForEvent(harness, (event) => event.type === "tool.execution_start");
    const second = harness.session.send("second");
    const queued = harness.ofType("pending_messages.modified").at(-1);
    expect(queued?.data.items?.map((item) => item.prompt)).toEqual(["second"]);
    gate.release();
    expect((await first).finalMessage).toBe("First done.");
    expect((await second).finalMessage).toBe("Second done.");
    expect(harness.ofType("pending_messages.modified").at(-1)?.data.items).toEqual([]);
    expect(harness.ofType("user.message").map((event) => event.data.delivery)).toEqual(["idle", "queued"]);
  });

  it("announces a prompt sent to an idle agent as passing the queue, before its user message, as Copilot does", async () => {
    harness = await startHarness();
    harness.server.enqueue(text("Done."));
    await harness.session.send("at once");
    const types = harness.events.map((event) => event.type);
    const announced = types.indexOf("pending_messages.modified");
    expect(announced).toBeGreaterThanOrEqual(0);
    expect(announced).toBeLessThan(types.indexOf("user.message"));
    expect(harness.ofType("pending_messages.modified").at(-1)?.data).toEqual({ items: [], paused: false });
  });

  it("delivers an immediate message to the running prompt before its next model call (steering)", async () => {
    const gate = gateTool();
    harness = await startHarness({ extraTools: [gate.tool] });
    harness.server.enqueue(toolCall("gate", {}), text("Adjusted."));
    const run = harness.session.dispatch({ type: "send", prompt: "start" });
    await waitForEvent(harness, (event) => event.type === "tool.execution_start");
    const steered = harness.session.dispatch({ type: "send", prompt: "use tabs, not spaces", delivery: "immediate" });
    gate.release();
    const [result, same] = await Promise.all([run, steered]);
    expect(result).toBe(same);
    expect(harness.server.completionRequests).toHaveLength(2);
    const messages = harness.server.completionRequests[1]?.body.messages ?? [];
    // After the tool result, before the model is called again: never between a call and its result.
    expect(messages.at(-2)?.role).toBe("tool");
    expect(String(messages.at(-1)?.content)).toContain("use tabs, not spaces");
    expect(harness.ofType("user.message").at(-1)?.data.delivery).toBe("steering");
  });

  it("holds the queue after an interrupt until it is flushed, and unqueue hands a prompt back", async () => {
    harness = await startHarness();
    harness.server.enqueue(hang(), text("Two."), text("Three."));
    const first = harness.session.send("one");
    await harness.server.waitForRequests(1);
    const second = harness.session.send("two");
    const third = harness.session.send("three");
    harness.session.interrupt();
    expect((await first).outcome).toBe("aborted");
    await waitForEvent(harness, (event) => event.type === "pending_messages.modified" && event.data.paused === true);
    expect(harness.server.completionRequests).toHaveLength(1);
    const items = harness.ofType("pending_messages.modified").at(-1)?.data.items ?? [];
    const taken = harness.session.dispatch({ type: "unqueue", id: items.at(-1)?.id as string });
    expect(taken?.prompt).toBe("three");
    expect((await third).outcome).toBe("aborted");
    harness.session.dispatch({ type: "flush_queue" });
    expect((await second).finalMessage).toBe("Two.");
    expect(lastUserText(harness)).toContain("two");
  });
});

describe("a queued command or !cmd", () => {
  it("shows as typed while it waits, and unqueue gives back what was typed (not /review's template, not the bare command)", async () => {
    harness = await startHarness();
    harness.server.enqueue(hang());
    const first = harness.session.send("one");
    await harness.server.waitForRequests(1);
    await harness.session.engine.dispatch({ type: "input", text: "/research how the cache works" });
    void harness.session.engine.dispatch({ type: "input", text: "!echo hi" });
    const shown = await waitForEvent(harness, (event) => event.type === "pending_messages.modified" && (event.data.items?.length ?? 0) === 2);
    const items = shown.type === "pending_messages.modified" ? (shown.data.items ?? []) : [];
    expect(items.map((item) => item.prompt)).toEqual(["/research how the cache works", "!echo hi"]);
    expect(harness.session.dispatch({ type: "unqueue", id: items[1]?.id as string })?.prompt).toBe("!echo hi");
    expect(harness.session.dispatch({ type: "unqueue", id: items[0]?.id as string })?.prompt).toBe("/research how the cache works");
    harness.session.interrupt();
    expect((await first).outcome).toBe("aborted");
  });
});

describe("state changes are events", () => {
  it("allow-all on and off emits session.permissions_changed; resetting approvals says so", async () => {
    harness = await startHarness();
    harness.session.dispatch({ type: "set_allow_all", on: true });
    harness.session.dispatch({ type: "set_allow_all", on: true });
    harness.session.dispatch({ type: "set_allow_all", on: false });
    expect(harness.ofType("session.permissions_changed").map((event) => event.data.mode)).toEqual(["allow-all", "manual"]);
    harness.session.dispatch({ type: "reset_allowed_tools" });
    expect(harness.ofType("session.info").at(-1)?.data.infoType).toBe("permissions");
  });

  it("announces a background shell's exit to the model as a system.notification", async () => {
    harness = await startHarness({ allowAllTools: true });
    harness.server.enqueue(toolCall("bash", { command: "echo bg-done", description: "background echo", mode: "async" }), text("Started."));
    await harness.session.send("start it");
    const notification = await waitForEvent(harness, (event) => event.type === "system.notification");
    expect(notification.type === "system.notification" && notification.data.content).toContain("background echo");
    harness.server.enqueue(text("Noted."));
    await harness.session.send("what happened?");
    const messages = harness.server.completionRequests.at(-1)?.body.messages ?? [];
    expect(messages.some((message) => String(message.content).includes("<system_notification>"))).toBe(true);
  });
});

describe("answers", () => {
  it("rejects an answer of the wrong shape or to no question, and takes the right one", async () => {
    harness = await startHarness({ interactive: true });
    harness.server.enqueue(toolCall("bash", { command: "touch made.txt", description: "touch" }), text("Made."));
    const run = harness.session.send("make it");
    const asked = await waitForEvent(harness, (event) => event.type === "permission.requested");
    const requestId = asked.type === "permission.requested" ? asked.data.requestId : "";
    expect(harness.session.respond("no-such-request", { kind: "approve-once" })).toMatch(/No question/);
    expect(harness.session.respond(requestId, { approved: true })).toMatch(/Not a valid answer to a permission request/);
    expect(harness.session.respond(requestId, { kind: "approve-once" })).toBeUndefined();
    expect((await run).finalMessage).toBe("Made.");
  });
});

describe("the input router", () => {
  const route = async (h: Harness, text: string) => {
    const routed = await h.session.dispatch({ type: "input", text });
    return routed.kind === "prompt" ? { kind: routed.kind, result: (await routed.run) as RunResult } : { kind: routed.kind };
  };

  it("/plan with a request switches to plan mode and sends the request", async () => {
    harness = await startHarness();
    harness.server.enqueue(text("A plan."));
    const routed = await route(harness, "/plan add a cache");
    expect(routed.kind).toBe("prompt");
    expect(harness.session.mode).toBe("plan");
    expect(harness.ofType("command.execute")[0]?.data).toMatchObject({ commandName: "plan", args: "add a cache" });
    expect(lastUserText(harness)).toContain("add a cache");
    expect(lastUserText(harness)).not.toContain("/plan add a cache");
  });

  it("an unknown command is a warning with the closest match, and no model call", async () => {
    harness = await startHarness();
    expect((await route(harness, "/plna x")).kind).toBe("unknown-command");
    expect(harness.ofType("session.warning").at(-1)?.data.message).toBe("Unknown command: /plna (did you mean /plan?)");
    expect(harness.server.completionRequests).toHaveLength(0);
  });

  it("!cmd runs for the user; @path mentions become attachments", async () => {
    harness = await startHarness();
    writeFileSync(path.join(harness.cwd, "a.ts"), "export const a = 1;\n");
    await route(harness, "!echo routed-shell");
    expect(harness.ofType("tool.execution_complete").at(-1)?.data.isUserRequested).toBe(true);
    harness.server.enqueue(text("Seen."));
    await route(harness, "look at @a.ts please");
    expect(harness.ofType("user.message").at(-1)?.data.attachments).toEqual([{ type: "file", path: "a.ts" }]);
    expect(lastUserText(harness)).toContain("<tagged_files>");
    const sent = harness.server.completionRequests.at(-1)?.body.messages ?? [];
    expect(sent.some((message) => String(message.content).includes("routed-shell"))).toBe(true);
  });
});

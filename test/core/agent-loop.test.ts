import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AUTOPILOT_CONTINUATION } from "../../src/core/modes.js";
import { startHarness, waitForEvent, type Harness } from "../support/engine-harness.js";
import { hang, text, toolCall, toolCalls } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** Event types with runs of the same streaming delta collapsed to one. */
function collapse(types: string[]): string[] {
  return types.filter((type, index) => !(type.endsWith("_delta") && types[index - 1] === type));
}

describe("the agent loop", () => {
  it("answers a text-only prompt in one turn, in seed 002's order", async () => {
    harness = await startHarness();
    harness.server.enqueue(text("Hello there, how can I help?", { chunkSize: 5 }));
    const result = await harness.session.send("hi");
    expect(result.outcome).toBe("completed");
    expect(result.finalMessage).toBe("Hello there, how can I help?");
    expect(collapse(harness.types())).toEqual([
      "session.start",
      // The prompt passes the queue first, as Copilot's does (its observed simple turn opens with this too).
      "pending_messages.modified",
      "system.message",
      "user.message",
      "assistant.turn_start",
      "assistant.message_delta",
      "assistant.message",
      "assistant.usage",
      "session.usage_checkpoint",
      "session.usage_info",
      "assistant.turn_end",
      "session.idle",
    ]);
    const deltas = harness.ofType("assistant.message_delta").map((event) => event.data.deltaContent);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("")).toBe("Hello there, how can I help?");
    const message = harness.ofType("assistant.message")[0];
    expect(deltas.length && harness.ofType("assistant.message_delta").every((event) => event.data.messageId === message?.data.messageId)).toBe(true);
    expect(harness.ofType("session.idle")[0]?.ephemeral).toBe(true);
    expect(harness.server.completionRequests).toHaveLength(1);
  });

  it("tells the context's size by estimate when the endpoint reports no input tokens (it is never empty)", async () => {
    harness = await startHarness();
    harness.server.enqueue(
      text("Ten.", { usage: { prompt_tokens: 0, completion_tokens: 0 } }),
      text("Twenty.", { usage: { prompt_tokens: 900, completion_tokens: 3 } }),
    );
    await harness.session.send("5+5?");
    const estimated = harness.ofType("session.usage_info").at(-1)?.data;
    expect(estimated?.currentTokens).toBeGreaterThan(0);
    expect(estimated?.messagesLength).toBeGreaterThan(0);
    await harness.session.send("10+10?");
    expect(harness.ofType("session.usage_info").at(-1)?.data.currentTokens).toBe(903);
  });

  it("runs a requested tool, feeds the result back and calls the model again", async () => {
    harness = await startHarness();
    writeFileSync(path.join(harness.cwd, "notes.txt"), "alpha\nbeta\n");
    harness.server.enqueue(toolCall("view", { path: path.join(harness.cwd, "notes.txt") }, { text: "Let me read it." }), text("It has two lines."));
    const result = await harness.session.send("what is in notes.txt?");
    expect(result.outcome).toBe("completed");
    expect(collapse(harness.types({ without: ["assistant.usage", "session.usage_checkpoint", "session.usage_info"] })).slice(4)).toEqual([
      "assistant.turn_start",
      "assistant.message_delta",
      "assistant.message",
      "tool.execution_start",
      "tool.execution_complete",
      "assistant.turn_end",
      "assistant.turn_start",
      "assistant.message_delta",
      "assistant.message",
      "assistant.turn_end",
      "session.idle",
    ]);
    const complete = harness.ofType("tool.execution_complete")[0];
    expect(complete?.data.success).toBe(true);
    expect(complete?.data.result?.content).toContain("1. alpha");
    // The second request carries the assistant's tool call and the tool result, in order.
    const second = harness.server.completionRequests[1]?.body.messages ?? [];
    const roles = second.map((message) => message.role);
    expect(roles).toEqual(["system", "user", "assistant", "tool"]);
    expect(second[3]?.content).toContain("2. beta");
    expect(second[3]?.tool_call_id).toBe(harness.ofType("assistant.message")[0]?.data.toolRequests?.[0]?.toolCallId);
  });

  it("runs parallel read-only calls and reports them in request order", async () => {
    harness = await startHarness();
    for (const name of ["a", "b", "c"]) writeFileSync(path.join(harness.cwd, `${name}.txt`), `${name}\n`);
    harness.server.enqueue(
      toolCalls(["a", "b", "c"].map((name) => ({ name: "view", arguments: { path: path.join(harness!.cwd, `${name}.txt`) } }))),
      text("done"),
    );
    await harness.session.send("read all three");
    const requested = harness.ofType("assistant.message")[0]?.data.toolRequests?.map((request) => request.toolCallId);
    expect(requested).toHaveLength(3);
    expect(harness.ofType("tool.execution_start").map((event) => event.data.toolCallId)).toEqual(requested);
    expect(harness.ofType("tool.execution_complete").map((event) => event.data.toolCallId)).toEqual(requested);
    const tools = harness.server.completionRequests[1]?.body.messages.filter((message) => message.role === "tool") ?? [];
    expect(tools.map((message) => message.tool_call_id)).toEqual(requested);
  });

  it("turns a failing tool, bad JSON, a schema violation and an unknown tool into error results and goes on", async () => {
    harness = await startHarness();
    harness.server.enqueue(
      toolCalls([
        { name: "view", arguments: { path: path.join(harness.cwd, "missing.txt") } },
        { name: "view", arguments: "{not json" },
        { name: "view", arguments: { path: 42 } },
        { name: "teleport", arguments: {} },
      ]),
      text("I could not read those."),
    );
    const result = await harness.session.send("go");
    expect(result.outcome).toBe("completed");
    const completes = harness.ofType("tool.execution_complete");
    expect(completes.map((event) => event.data.success)).toEqual([false, false, false, false]);
    expect(completes.map((event) => event.data.error?.code)).toEqual(["not_found", "invalid_json", "invalid_arguments", "unknown_tool"]);
    expect(completes[1]?.data.error?.message).toMatch(/not valid JSON/);
    expect(completes[2]?.data.error?.message).toMatch(/path/);
    expect(completes[3]?.data.error?.message).toMatch(/^Tool 'teleport' does not exist. Available tools that can be called are .*view/s);
    const toolMessages = harness.server.completionRequests[1]?.body.messages.filter((message) => message.role === "tool") ?? [];
    expect(toolMessages).toHaveLength(4);
    // The invalid arguments are sent back exactly as the model wrote them.
    const assistant = harness.server.completionRequests[1]?.body.messages.find((message) => message.role === "assistant");
    expect(JSON.stringify(assistant)).toContain("{not json");
  });

  it("stops mid-stream on interrupt, records the abort and keeps the history valid", async () => {
    harness = await startHarness();
    harness.server.enqueue({ kind: "stream", text: "Partial answer that never ends", chunkSize: 4, hangAfterChunks: 3 });
    const running = harness.session.send("tell me a long story");
    await waitForEvent(harness, (event) => event.type === "assistant.message_delta" && event.data.deltaContent === "answ");
    harness.session.interrupt();
    const result = await running;
    expect(result.outcome).toBe("aborted");
    expect(harness.types({ persistedOnly: true }).slice(-4)).toEqual(["assistant.turn_start", "assistant.message", "abort", "assistant.turn_end"]);
    expect(harness.ofType("assistant.message")[0]?.data).toMatchObject({ interrupted: true, content: "Partial answ" });
    expect(harness.ofType("session.idle")[0]?.data.aborted).toBe(true);
    // The next prompt works and its request is well formed.
    harness.server.enqueue(text("ok"));
    const next = await harness.session.send("shorter please");
    expect(next.outcome).toBe("completed");
    expect(harness.server.completionRequests[1]?.body.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
  });

  it("interrupts a running tool and closes every tool call with a result", async () => {
    harness = await startHarness({ allowAllTools: true });
    harness.server.enqueue(
      toolCalls([
        { name: "bash", arguments: { command: "sleep 30", description: "Wait" } },
        { name: "bash", arguments: { command: "echo never", description: "Never runs" } },
      ]),
    );
    const running = harness.session.send("wait");
    await waitForEvent(harness, (event) => event.type === "tool.execution_start");
    harness.session.interrupt();
    const result = await running;
    expect(result.outcome).toBe("aborted");
    const completes = harness.ofType("tool.execution_complete");
    expect(completes).toHaveLength(2);
    expect(completes.every((event) => !event.data.success)).toBe(true);
    expect(completes[1]?.data.error?.code).toBe("aborted");
    expect(harness.types({ persistedOnly: true }).slice(-2)).toEqual(["abort", "assistant.turn_end"]);
  });

  it("aborts a request that has not started answering", async () => {
    harness = await startHarness();
    harness.server.enqueue(hang());
    const running = harness.session.send("hello?");
    await harness.server.waitForRequests(1);
    harness.session.interrupt();
    expect((await running).outcome).toBe("aborted");
    expect(harness.ofType("assistant.message")).toHaveLength(0);
  });

  it("queues a prompt sent while busy and runs it after", async () => {
    harness = await startHarness();
    harness.server.enqueue(text("first"), text("second"));
    const [first, second] = await Promise.all([harness.session.send("one"), harness.session.send("two")]);
    expect([first.finalMessage, second.finalMessage]).toEqual(["first", "second"]);
    expect(harness.ofType("user.message").map((event) => event.data.delivery)).toEqual(["idle", "queued"]);
    // One idle, after the queued prompt's answer: idle means nothing is left to do (an SDK sendAndWait waits for it).
    expect(harness.ofType("session.idle")).toHaveLength(1);
    const types = harness.events.map((event) => event.type);
    expect(types.indexOf("session.idle")).toBeGreaterThan(types.lastIndexOf("assistant.message"));
  });

  it("makes exactly one request per assistant.turn_start", async () => {
    harness = await startHarness({ allowAllTools: true });
    harness.server.enqueue(
      toolCall("bash", { command: "echo one", description: "One" }),
      toolCall("bash", { command: "echo two", description: "Two" }),
      text("finished"),
    );
    await harness.session.send("do it");
    expect(harness.ofType("assistant.turn_start")).toHaveLength(harness.server.completionRequests.length);
    expect(harness.ofType("assistant.turn_end")).toHaveLength(3);
    expect(harness.ofType("assistant.turn_start").map((event) => event.data.turnId)).toEqual(["1", "2", "3"]);
  });
});

describe("autopilot", () => {
  it("offers task_complete and ends when the model calls it", async () => {
    harness = await startHarness({ mode: "autopilot" });
    harness.server.enqueue(toolCall("task_complete", { summary: "All **done**." }));
    const result = await harness.session.send("do the thing");
    expect(result).toMatchObject({ outcome: "task_complete", summary: "All **done**." });
    const tools = (harness.server.completionRequests[0]?.body.tools ?? []) as { function: { name: string } }[];
    expect(tools.map((tool) => tool.function.name)).toContain("task_complete");
    expect(harness.types({ persistedOnly: true }).slice(-4)).toEqual([
      "tool.execution_start",
      "tool.execution_complete",
      "session.task_complete",
      "assistant.turn_end",
    ]);
    expect(harness.server.completionRequests).toHaveLength(1);
  });

  it("does not offer task_complete in interactive mode", async () => {
    harness = await startHarness();
    harness.server.enqueue(text("hi"));
    await harness.session.send("hi");
    const tools = (harness.server.completionRequests[0]?.body.tools ?? []) as { function: { name: string } }[];
    expect(tools.map((tool) => tool.function.name)).not.toContain("task_complete");
    expect(tools.map((tool) => tool.function.name)).toEqual(expect.arrayContaining(["bash", "view", "create", "edit", "grep", "glob"]));
  });

  it("nudges with the continuation message, then continues to task_complete", async () => {
    harness = await startHarness({ mode: "autopilot" });
    harness.server.enqueue(text("I will now plan."), toolCall("task_complete", { summary: "Done." }));
    const result = await harness.session.send("fix it");
    expect(result.outcome).toBe("task_complete");
    expect(result.continuations).toBe(1);
    const nudge = harness.ofType("user.message")[1];
    expect(nudge?.data).toMatchObject({ content: AUTOPILOT_CONTINUATION, source: "autopilot", isAutopilotContinuation: true });
    expect(nudge?.data.content).toContain("IMPORTANT: Do NOT call task_complete if:");
    const lastMessages = harness.server.completionRequests[1]?.body.messages ?? [];
    expect(String(lastMessages.at(-1)?.content)).toContain("You have not yet marked the task as complete");
  });

  it("stops after --max-autopilot-continues with a stated reason: at most 6 calls by default", async () => {
    harness = await startHarness({ mode: "autopilot" });
    harness.server.enqueue(...Array.from({ length: 10 }, (_, index) => text(`still thinking ${index}`)));
    const result = await harness.session.send("never finishes");
    expect(result.outcome).toBe("max_continues");
    expect(result.continuations).toBe(5);
    expect(harness.server.completionRequests).toHaveLength(6);
    expect(harness.ofType("assistant.turn_start")).toHaveLength(6);
    const stopped = harness.ofType("session.autopilot_stopped")[0];
    expect(stopped?.data).toMatchObject({ reason: "max_continues", continuations: 5 });
    expect(stopped?.data.message).toMatch(/--max-autopilot-continues 5/);
  });

  it("honours a smaller limit", async () => {
    harness = await startHarness({ mode: "autopilot", maxAutopilotContinues: 1 });
    harness.server.enqueue(text("a"), text("b"), text("c"));
    const result = await harness.session.send("x");
    expect(result.outcome).toBe("max_continues");
    expect(harness.server.completionRequests).toHaveLength(2);
  });
});

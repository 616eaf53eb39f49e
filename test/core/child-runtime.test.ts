/**
 * A subagent is a child runtime of the same engine: its events land in the parent's one log (one parentId
 * chain) tagged with agentId and parentToolCallId, each agent folds only its own conversation, and a resume
 * folds both the same way.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Conversation } from "../../src/core/conversation.js";
import type { AgentSession } from "../../src/core/agent-session.js";
import { readEventLog } from "../../src/session/event-log-reader.js";
import { startHarness, type Harness } from "../support/engine-harness.js";
import { hang, text, toolCall } from "../support/scripted-server.js";
import { delegateTool } from "../support/delegate-tool.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function startWithDelegate(): Promise<Harness> {
  let engine: AgentSession | undefined;
  const started = await startHarness({ extraTools: [delegateTool(() => engine as AgentSession)] });
  engine = started.session.engine;
  return started;
}

describe("a child runtime", () => {
  it("runs inside a tool call; its events carry agentId and parentToolCallId in the parent's one chain", async () => {
    harness = await startWithDelegate();
    harness.server.enqueue(toolCall("delegate", { prompt: "find the answer" }, { id: "call_parent" }), text("The child found 42."), text("Done: 42."));
    const result = await harness.session.send("ask the helper");
    expect(result.finalMessage).toBe("Done: 42.");

    const requests = harness.server.completionRequests;
    expect(requests).toHaveLength(3);
    // The child has its own conversation: its system prompt and its prompt, nothing of the parent's.
    const childMessages = requests[1]?.body.messages ?? [];
    expect(childMessages.map((message) => message.role)).toEqual(["system", "user"]);
    expect(String(childMessages[0]?.content)).toBe("You are a helper.");
    expect(String(childMessages[1]?.content)).toBe("find the answer");
    expect(((requests[1]?.body.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name)).toEqual(["view"]);
    // The parent sees only the tool result.
    const parentLast = requests[2]?.body.messages.at(-1);
    expect(parentLast?.role).toBe("tool");
    expect(String(parentLast?.content)).toBe("helper said: The child found 42.");

    const childEvents = harness.events.filter((event) => event.agentId === "helper-1");
    expect(childEvents.map((event) => event.type)).toEqual(
      expect.arrayContaining(["system.message", "user.message", "assistant.turn_start", "assistant.message", "assistant.turn_end"]),
    );
    for (const event of childEvents) expect((event.data as { parentToolCallId?: string }).parentToolCallId).toBe("call_parent");
    // Children's model calls count: one turn_start per request made.
    expect(harness.ofType("assistant.turn_start")).toHaveLength(requests.length);

    const log = readEventLog(harness.store.eventsFileOf(harness.session.id));
    let previous: string | null = null;
    for (const event of log.events) {
      expect(event.parentId).toBe(previous);
      previous = event.id;
    }
    expect(log.events.some((event) => event.agentId === "helper-1" && event.type === "assistant.message")).toBe(true);
  });

  it("folds each agent's own history from the log on resume", async () => {
    harness = await startWithDelegate();
    harness.server.enqueue(toolCall("delegate", { prompt: "find it" }, { id: "call_1" }), text("Child answer."), text("Parent answer."));
    await harness.session.send("go");
    harness.session.shutdown();
    const { events } = readEventLog(harness.store.eventsFileOf(harness.session.id));
    const main = new Conversation();
    const child = new Conversation("helper-1");
    for (const event of events) {
      main.apply(event);
      child.apply(event);
    }
    expect(main.messages().map((message) => [message.role, message.content])).toEqual([
      ["system", expect.any(String)],
      ["user", expect.stringContaining("go")],
      ["assistant", ""],
      ["tool", "helper said: Child answer."],
      ["assistant", "Parent answer."],
    ]);
    expect(child.messages().map((message) => [message.role, message.content])).toEqual([
      ["system", "You are a helper."],
      ["user", "find it"],
      ["assistant", "Child answer."],
    ]);
    // A resumed session sends the main history only.
    const resumed = await startHarness({ server: harness.server, home: harness.home, cwd: harness.cwd, resumeId: harness.session.id });
    harness.server.enqueue(text("Still here."));
    await resumed.session.send("and now?");
    const sent = harness.server.completionRequests.at(-1)?.body.messages ?? [];
    expect(sent.some((message) => String(message.content) === "Child answer." || String(message.content) === "find it")).toBe(false);
    expect(sent.some((message) => String(message.content).includes("helper said: Child answer."))).toBe(true);
    await resumed.close();
  });

  it("stops when the parent is interrupted, and the history stays valid", async () => {
    harness = await startWithDelegate();
    harness.server.enqueue(toolCall("delegate", { prompt: "wait" }, { id: "call_2" }), hang(), text("Recovered."));
    const running = harness.session.send("delegate and wait");
    await harness.server.waitForRequests(2);
    harness.session.interrupt();
    expect((await running).outcome).toBe("aborted");
    expect(harness.events.some((event) => event.type === "abort" && event.agentId === "helper-1")).toBe(true);
    const next = await harness.session.send("again");
    expect(next.finalMessage).toBe("Recovered.");
  });
});

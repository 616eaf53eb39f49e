/**
 * Moving a running sync agent to the background (background_agent, the TUI's Ctrl+X B): the task call
 * returns at once with the agent's id, the agent goes on in the task registry, and the main agent is
 * notified when it answers. Also: an interrupt cancels a whole tree of sync agents.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AgentDefinition, AgentDirectory } from "../../src/core/tasks/agent-directory.js";
import { startHarness, waitForEvent, type Harness } from "../support/engine-harness.js";
import { hang, startScriptedServer, text, toolCall, type CompletionRequest, type ScriptedResponse } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const agent = (name: string): AgentDefinition => ({
  source: "builtin",
  userInvocable: false,
  file: "test",
  name,
  displayName: name,
  description: `The ${name} agent`,
  systemPrompt: `You are ${name}.`,
  modelInvocable: true,
});
const AGENTS = [agent("explore"), agent("general-purpose")];
const directory: AgentDirectory = {
  list: () => AGENTS,
  get: (name) => AGENTS.find((candidate) => candidate.name === name),
  modelInvocable: () => AGENTS,
  userInvocable: () => [],
};
const task = (args: Record<string, unknown>, id = "call_task") =>
  toolCall("task", { description: "look around", prompt: "Find the answer.", agent_type: "explore", ...args }, { id });

/** Answers routed by who asks (the main agent, or a subagent by its system prompt); a response may wait on a gate. */
async function routed() {
  const queues = new Map<string, (ScriptedResponse | Promise<ScriptedResponse>)[]>();
  const server = await startScriptedServer({
    responder: async (request: CompletionRequest) => {
      const key = request.headers["x-initiator"] === "sub-agent" ? String(request.body.messages[0]?.content) : "main";
      return (await queues.get(key)?.shift()) ?? text(`(nothing scripted for ${key})`);
    },
  });
  const add = (key: string, ...responses: (ScriptedResponse | Promise<ScriptedResponse>)[]) => queues.set(key, [...(queues.get(key) ?? []), ...responses]);
  harness = await startHarness({ agents: directory, server });
  const close = harness.close;
  harness.close = async () => {
    await close();
    await server.close();
  };
  return { h: harness, add };
}

describe("moving a sync agent to the background", () => {
  it("returns the task call at once; the agent goes on in the registry and the main agent hears its answer", async () => {
    const { h, add } = await routed();
    let release: (response: ScriptedResponse) => void = () => undefined;
    add("main", task({ name: "mover" }), text("Going on meanwhile."));
    add("You are explore.", new Promise<ScriptedResponse>((resolve) => (release = resolve)));
    const run = h.session.send("delegate");
    await waitForEvent(h, (event) => event.type === "assistant.turn_start" && event.agentId === "mover-1");
    expect(h.session.dispatch({ type: "background_agent" })).toEqual(["mover-1"]);
    const result = await run;
    expect(result.finalMessage).toBe("Going on meanwhile.");
    const call = h.ofType("tool.execution_complete").find((event) => event.data.toolCallId === "call_task");
    expect(call?.data.success).toBe(true);
    expect(call?.data.result?.content).toContain("moved this agent to the background; it goes on working with agent_id: mover-1");
    expect(h.ofType("subagent.started").map((event) => event.data.executionMode)).toEqual(["sync", "background"]);
    expect(h.session.engine.agentRecords.map((record) => [record.id, record.status])).toEqual([["mover-1", "running"]]);

    release(text("The moved answer."));
    const notice = await waitForEvent(h, (event) => event.type === "system.notification");
    expect(notice.type === "system.notification" && notice.data.content).toContain("mover-1");
    expect(h.session.engine.agentRecords[0]?.latestResponse).toBe("The moved answer.");
    // Its transcript (for /tasks) has its whole story, from before the move too.
    await h.session.dispatch({ type: "input", text: "/tasks view mover-1" });
    expect(h.ofType("session.info").at(-1)?.data.message).toBe("mover-1 (explore, idle): look around\n\n› Find the answer.\n\nThe moved answer.");
    // An interrupt of the main agent no longer reaches it; cancelling it through the registry does.
    h.session.interrupt();
    expect(h.session.engine.agentRecords[0]?.status).toBe("idle");
    expect(h.session.dispatch({ type: "cancel_agent", agentId: "mover-1" })).toBe(true);
    await waitForEvent(h, (event) => event.type === "subagent.completed" || event.type === "subagent.failed");
    // One end for the one agent, under the task call that started it.
    expect([...h.ofType("subagent.completed"), ...h.ofType("subagent.failed")].map((event) => event.data.toolCallId)).toEqual(["call_task"]);
  });

  it("does nothing when no sync agent runs", async () => {
    const { h, add } = await routed();
    add("main", text("Hi."));
    await h.session.send("hello");
    expect(h.session.dispatch({ type: "background_agent" })).toEqual([]);
  });
});

describe("interrupting a tree of agents", () => {
  it("cancels the child and the grandchild; every tool call has a result and the session goes on", async () => {
    const { h, add } = await routed();
    add("main", task({ agent_type: "general-purpose", name: "parent" }, "call_parent"), text("Back again."));
    add("You are general-purpose.", task({ agent_type: "explore", name: "grandchild" }, "call_grandchild"));
    add("You are explore.", hang());
    const run = h.session.send("delegate deeply");
    await waitForEvent(h, (event) => event.type === "assistant.turn_start" && event.agentId === "grandchild-1");
    h.session.interrupt();
    expect((await run).outcome).toBe("aborted");
    const failed = h.ofType("subagent.failed").map((event) => [event.data.toolCallId, event.data.error]);
    expect(failed).toEqual([
      ["call_grandchild", "interrupted by the user"],
      ["call_parent", "interrupted by the user"],
    ]);
    const starts = h.ofType("tool.execution_start").map((event) => event.data.toolCallId);
    const completes = h.ofType("tool.execution_complete").map((event) => event.data.toolCallId);
    expect(completes.sort()).toEqual(starts.sort());
    expect((await h.session.send("again")).finalMessage).toBe("Back again.");
  });
});

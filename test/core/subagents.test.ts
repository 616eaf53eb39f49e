/**
 * The task tool against the scripted server: sync and background agents, the registry's tools, the limits,
 * and what the log shows. The scripted server answers in request order; subagents' requests are told apart
 * by their x-initiator header and their own system prompt.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentDefinition, AgentDirectory } from "../../src/core/tasks/agent-directory.js";
import { startHarness, waitForEvent, type Harness } from "../support/engine-harness.js";
import { hang, startScriptedServer, text, toolCall, toolCalls, type CompletionRequest, type ScriptedResponse } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const builtin = { source: "builtin" as const, userInvocable: false, file: "test" };
const AGENTS: AgentDefinition[] = [
  {
    ...builtin,
    name: "explore",
    displayName: "Explore",
    description: "Fast read-only search",
    tools: ["view", "grep", "glob"],
    systemPrompt: "You are the explore agent.",
    modelInvocable: true,
  },
  { ...builtin, name: "general-purpose", displayName: "General", description: "Does anything", systemPrompt: "You are a general agent.", modelInvocable: true },
  { ...builtin, name: "hidden", displayName: "Hidden", description: "Not for the model", systemPrompt: "x", modelInvocable: false },
];
const directory: AgentDirectory = {
  list: () => AGENTS,
  get: (name) => AGENTS.find((agent) => agent.name === name),
  modelInvocable: () => AGENTS.filter((agent) => agent.modelInvocable),
  userInvocable: () => [],
};

const task = (args: Record<string, unknown>, id = "call_task") =>
  toolCall("task", { description: "look around", prompt: "Find the answer.", agent_type: "explore", ...args }, { id });
const toolResults = (h: Harness) =>
  h
    .ofType("tool.execution_complete")
    .filter((event) => !event.agentId)
    .map((event) => event.data);
const systemOf = (index: number, h: Harness) => String(h.server.completionRequests[index]?.body.messages[0]?.content);

describe("the task tool, sync", () => {
  it("runs the agent inside the call: its answer is the result, with a footer, and its events are in the log", async () => {
    harness = await startHarness({ agents: directory });
    harness.server.enqueue(task({ name: "finder" }), text("The answer is 42."), text("It is 42."));
    const result = await harness.session.send("what is the answer?");
    expect(result.finalMessage).toBe("It is 42.");
    const requests = harness.server.completionRequests;
    expect(requests[1]?.headers["x-initiator"]).toBe("sub-agent");
    expect(requests[0]?.headers["x-initiator"]).toBeUndefined();
    expect(systemOf(1, harness)).toBe("You are the explore agent.");
    const description =
      ((requests[0]?.body.tools ?? []) as { function: { name: string; description: string } }[]).find((tool) => tool.function.name === "task")?.function
        .description ?? "";
    expect(description).toContain("Built-in agents:\n- explore: Fast read-only search");
    expect(description).not.toContain("hidden");
    const [call] = toolResults(harness);
    expect(call?.result?.content).toMatch(/^The answer is 42\.\n\n— Explore · 1 turn · 0 tool calls · \d+ tokens · [\d.]+ s$/);
    expect(harness.ofType("subagent.started")[0]?.data).toMatchObject({ toolCallId: "call_task", agentName: "explore", executionMode: "sync" });
    expect(harness.ofType("subagent.completed")[0]?.data).toMatchObject({ toolCallId: "call_task", agentName: "explore" });
    const childEvents = harness.events.filter((event) => event.agentId === "finder-1");
    expect(childEvents.some((event) => event.type === "assistant.message")).toBe(true);
    expect(harness.ofType("assistant.turn_start")).toHaveLength(requests.length);
  });

  it("refuses an unknown type, a model the endpoint does not offer, and nesting past the cap, as error results", async () => {
    harness = await startHarness({ agents: directory, subagentLimits: { maxDepth: 1, maxConcurrent: 2, maxTurns: 10 } });
    harness.server.enqueue(
      task({ agent_type: "nope" }, "c1"),
      task({ model: "no-such-model" }, "c2"),
      task({ agent_type: "general-purpose" }, "c3"),
      task({ agent_type: "explore" }, "c4"), // asked by the general agent: past the depth cap
      text("Could not nest."),
      text("Done."),
    );
    await harness.session.send("try things");
    const results = toolResults(harness);
    expect(results[0]?.error?.message).toContain('Unknown agent_type "nope". Valid agent types:\nBuilt-in agents:\n- explore');
    expect(results[1]?.error?.message).toMatch(/The model "no-such-model" is not offered by the endpoint. Available models: .*scripted-model/);
    const nested = harness.ofType("tool.execution_complete").find((event) => event.agentId === "general-purpose-1");
    // The general agent has no task tool at all at the cap (its tool list says so), so its call is unknown.
    expect(nested?.data.error?.message).toMatch(/Tool 'task' does not exist|nest at most 1/);
    expect(results[2]?.result?.content).toContain("Could not nest.");
  });

  it("narrows a subagent to the agent's tools", async () => {
    harness = await startHarness({ agents: directory });
    harness.server.enqueue(task({}), text("ok"), text("done"));
    await harness.session.send("go");
    const names = ((harness.server.completionRequests[1]?.body.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name).sort();
    expect(names).toEqual(["glob", "grep", "view"]);
  });

  it("interrupting the parent cancels the agent; the history stays valid", async () => {
    harness = await startHarness({ agents: directory });
    harness.server.enqueue(task({}), hang(), text("Back."));
    const running = harness.session.send("delegate");
    await harness.server.waitForRequests(2);
    harness.session.interrupt();
    expect((await running).outcome).toBe("aborted");
    expect(harness.ofType("subagent.failed")[0]?.data.error).toBe("interrupted by the user");
    expect((await harness.session.send("again")).finalMessage).toBe("Back.");
  });
});

/**
 * Background agents run beside the main agent, so the order of requests is not fixed: answers are routed,
 * the main agent's from one queue, each subagent's (x-initiator, its system prompt) from its own.
 */
function routedServer() {
  const queues = new Map<string, ScriptedResponse[]>();
  const add = (key: string, responses: ScriptedResponse[]) => queues.set(key, [...(queues.get(key) ?? []), ...responses]);
  const responder = (request: CompletionRequest): ScriptedResponse => {
    const key = request.headers["x-initiator"] === "sub-agent" ? String(request.body.messages[0]?.content) : "main";
    return queues.get(key)?.shift() ?? text(`(nothing scripted for ${key})`);
  };
  return {
    responder,
    main: (...responses: ScriptedResponse[]) => add("main", responses),
    explore: (...responses: ScriptedResponse[]) => add("You are the explore agent.", responses),
  };
}

async function startRouted(limits?: { maxDepth: number; maxConcurrent: number; maxTurns: number }, interactive = false) {
  const routes = routedServer();
  const server = await startScriptedServer({ responder: routes.responder });
  const started = await startHarness({ agents: directory, server, interactive, ...(limits ? { subagentLimits: limits } : {}) });
  const close = started.close;
  started.close = async () => {
    await close();
    await server.close();
  };
  return { h: started, routes };
}

describe("background agents", () => {
  it("returns at once, notifies the main agent when the agent answers, and read_agent returns its answer", async () => {
    const { h, routes } = await startRouted();
    harness = h;
    routes.main(task({ mode: "background", name: "bg" }), text("Started it."));
    routes.explore(text("Background answer."));
    await h.session.send("start it");
    expect(toolResults(h)[0]?.result?.content).toContain("Agent started in background with agent_id: bg-1");
    const notice = await waitForEvent(h, (event) => event.type === "system.notification");
    expect(notice.type === "system.notification" && notice.data.content).toContain("bg-1");
    routes.main(toolCall("read_agent", { agent_id: "bg-1", timeout_seconds: 1 }), text("It said: Background answer."));
    const result = await h.session.send("what did it say?");
    expect(result.finalMessage).toBe("It said: Background answer.");
    expect(toolResults(h).at(-1)?.result?.content).toContain("Background answer.");
    // The notification reached the model with the next prompt.
    const sent = h.server.completionRequests.filter((request) => request.headers["x-initiator"] === undefined).at(-2)?.body.messages ?? [];
    expect(sent.some((message) => String(message.content).includes("<system_notification>"))).toBe(true);
  });

  it("with a person present, an idle main agent gets a turn of its own when a background agent answers", async () => {
    const { h, routes } = await startRouted(undefined, true);
    harness = h;
    routes.main(task({ mode: "background", name: "wake" }), text("Started."), text("The agent reports: done."));
    routes.explore(text("Done."));
    await h.session.send("start");
    const reply = await waitForEvent(h, (event) => event.type === "assistant.message" && !event.agentId && event.data.content === "The agent reports: done.");
    expect(reply).toBeDefined();
    const lastUser = h
      .ofType("user.message")
      .filter((event) => !event.agentId)
      .at(-1);
    expect(lastUser?.data.content).toBe("start");
  });

  it("settle_background waits for agents (a run without a person), giving the main agent a turn per answer", async () => {
    const { h, routes } = await startRouted();
    harness = h;
    routes.main(task({ mode: "background", name: "one" }), text("Started it."), text("The agent found: Agent result."));
    routes.explore(text("Agent result."));
    await h.session.send("start it");
    const last = await h.session.dispatch({ type: "settle_background", timeoutMs: 10_000 });
    expect(last?.finalMessage).toBe("The agent found: Agent result.");
    expect(h.ofType("subagent.completed")).toHaveLength(1);
    expect(h.session.engine.backgroundAgents).toEqual([]);
  });

  it("write_agent wakes an idle multi-turn agent with a follow-up", async () => {
    const { h, routes } = await startRouted();
    harness = h;
    routes.main(task({ mode: "background", name: "mt" }), text("Started."));
    routes.explore(text("First answer."), text("Second answer."));
    await h.session.send("start");
    await waitForEvent(h, (event) => event.type === "system.notification" && event.data.content.includes("waits for a follow-up"));
    routes.main(toolCall("write_agent", { agent_id: "mt-1", message: "Now check the tests." }), text("Sent."));
    await h.session.send("ask it more");
    await waitForEvent(h, () => h.ofType("system.notification").length >= 2);
    const childUser = h.events.filter((event) => event.agentId === "mt-1" && event.type === "user.message");
    expect(childUser.map((event) => (event.type === "user.message" ? event.data.content : ""))).toEqual(["Find the answer.", "Now check the tests."]);
  });

  it("the concurrency cap makes the next agent wait for a slot; cancelling frees it", async () => {
    const { h, routes } = await startRouted({ maxDepth: 6, maxConcurrent: 1, maxTurns: 10 });
    harness = h;
    routes.main(
      toolCalls([
        { id: "ca", name: "task", arguments: { description: "a", prompt: "A", agent_type: "explore", mode: "background", name: "a" } },
        { id: "cb", name: "task", arguments: { description: "b", prompt: "B", agent_type: "explore", mode: "background", name: "b" } },
      ]),
      text("Both started."),
    );
    routes.explore(hang(), text("B done."));
    await h.session.send("start two");
    // Two requests of the main agent and one of agent a: b waits for the slot a holds.
    await h.server.waitForRequests(3);
    expect(h.server.completionRequests.filter((request) => request.headers["x-initiator"] === "sub-agent")).toHaveLength(1);
    expect(h.ofType("subagent.started").map((event) => event.data.executionMode)).toEqual(["background", "background"]);
    expect(h.session.dispatch({ type: "cancel_agent", agentId: "a-1" })).toBe(true);
    await waitForEvent(h, (event) => event.type === "system.notification" && event.data.content.includes("b-1"));
    expect(h.ofType("subagent.failed")[0]?.data.error).toBe("cancelled");
    const agentRequests = h.server.completionRequests.filter((request) => request.headers["x-initiator"] === "sub-agent");
    expect(agentRequests.map((request) => String(request.body.messages.at(-1)?.content))).toEqual(["A", "B"]);
  });
});

describe("an agent that answered and waits idle", () => {
  /** Reads the session's log as it is on disk. */
  const logged = (h: Harness) =>
    readFileSync(h.store.eventsFileOf(h.session.id), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });

  it("has subagent.completed on record while it waits, and the notification carries its answer", async () => {
    const { h, routes } = await startRouted(undefined, true);
    harness = h;
    routes.main(task({ mode: "background", name: "mt" }), text("Started."), text("Heard it."));
    routes.explore(text("The idle answer."));
    await h.session.send("start");
    const notice = await waitForEvent(h, (event) => event.type === "system.notification");
    expect(notice.type === "system.notification" && notice.data.content).toContain("Background agent mt-1 (explore) has answered");
    expect(notice.type === "system.notification" && notice.data.content).toContain("Its answer:\n\nThe idle answer.");
    expect(h.session.engine.agentRecords[0]?.status).toBe("idle");
    expect(
      logged(h)
        .filter((event) => event.type === "subagent.completed")
        .map((event) => event.data.toolCallId),
    ).toEqual(["call_task"]);
  });

  it.each([
    ["shut down", true],
    ["killed", false],
  ])("%s while it waits, it is resumed as completed (not failed), and listed by id", async (_how, shutDown) => {
    const { h, routes } = await startRouted(undefined, true);
    routes.main(task({ mode: "background", name: "mt" }), text("Started."), text("Heard it."));
    routes.explore(text("The idle answer."));
    await h.session.send("start");
    await waitForEvent(h, () => h.session.engine.agentRecords[0]?.status === "idle" && h.ofType("session.idle").length >= 2);
    const id = h.session.id;
    const file = h.store.eventsFileOf(id);
    // A process killed now leaves the log as it is at this moment: no shutdown, nothing about the agent's end.
    const asKilled = readFileSync(file, "utf8");
    h.session.shutdown();
    await h.session.engine.whenEnded();
    expect(h.ofType("session.warning").map((event) => event.data.message)).toContain(
      "Stopping 1 background agent as the session ends: mt-1 (idle after its answer: completed).",
    );
    if (!shutDown) writeFileSync(file, asKilled);
    expect(logged(h).some((event) => event.type === "subagent.failed")).toBe(false);
    const resumed = await startHarness({ agents: directory, server: h.server, home: h.home, cwd: h.cwd, resumeId: id });
    try {
      expect(resumed.ofType("subagent.failed")).toHaveLength(0);
      expect(resumed.session.engine.agentRecords.map((record) => [record.id, record.status])).toEqual([["mt-1", "completed"]]);
      await resumed.session.dispatch({ type: "input", text: "/tasks" });
      expect(resumed.ofType("session.info").at(-1)?.data.message).toMatch(/mt-1\s+completed/);
    } finally {
      await resumed.close();
      await h.server.close();
    }
  });

  it("a session that ends with one agent idle and one running completes the first and cancels the second", async () => {
    const main = [
      toolCalls([
        { id: "c1", name: "task", arguments: { description: "quick", prompt: "Q", agent_type: "explore", mode: "background", name: "quick" } },
        { id: "c2", name: "task", arguments: { description: "slow", prompt: "S", agent_type: "explore", mode: "background", name: "slow" } },
      ]),
      text("Both started."),
      text("Heard quick."),
    ];
    // The two agents run in either order: each is answered by its own prompt.
    const server = await startScriptedServer({
      responder: (request) =>
        request.headers["x-initiator"] !== "sub-agent"
          ? (main.shift() ?? text("(nothing scripted)"))
          : String(request.body.messages.at(-1)?.content).includes("Q")
            ? text("Quick answer.")
            : hang(),
    });
    const h = await startHarness({ agents: directory, server, interactive: true });
    const close = h.close;
    h.close = async () => {
      await close();
      await server.close();
    };
    harness = h;
    await h.session.send("start both");
    await waitForEvent(h, () => h.session.engine.agentRecords.find((record) => record.id === "quick-1")?.status === "idle");
    await h.server.waitForHang();
    h.session.shutdown();
    expect(h.ofType("session.warning").at(-1)?.data.message).toBe(
      "Stopping 2 background agents as the session ends: quick-1 (idle after its answer: completed), slow-1 (running: cancelled).",
    );
    expect(h.ofType("subagent.completed").map((event) => event.data.toolCallId)).toEqual(["c1"]);
    expect(h.ofType("subagent.failed").map((event) => [event.data.toolCallId, event.data.error])).toEqual([
      ["c2", "cancelled: the session ended while it was running"],
    ]);
    const types = logged(h).map((event) => event.type);
    expect(types.indexOf("subagent.failed")).toBeLessThan(types.indexOf("session.shutdown"));
  });
});

describe("agents across a resume, and /tasks", () => {
  it("a resumed session lists finished agents and read_agent returns their answers", async () => {
    const { h, routes } = await startRouted();
    harness = h;
    routes.main(task({ mode: "background", name: "kept" }), text("Started."), text("Noted."));
    routes.explore(text("The kept answer."));
    await h.session.send("start");
    await h.session.dispatch({ type: "settle_background", timeoutMs: 10_000 });
    const id = h.session.id;
    h.session.shutdown();
    const resumed = await startHarness({ agents: directory, server: h.server, home: h.home, cwd: h.cwd, resumeId: id });
    try {
      const listed = await resumed.session.dispatch({ type: "input", text: "/tasks" });
      expect(listed.kind).toBe("done");
      expect(resumed.ofType("session.info").at(-1)?.data.message).toMatch(/kept-1\s+completed/);
      routes.main(toolCall("read_agent", { agent_id: "kept-1", timeout_seconds: 0 }), text("Read it."));
      await resumed.session.send("what did kept-1 say?");
      const read = resumed.ofType("tool.execution_complete").at(-1)?.data.result?.content;
      expect(read).toContain("The kept answer.");
    } finally {
      await resumed.close();
    }
  });
});

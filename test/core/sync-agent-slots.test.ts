/**
 * Sync agents started in parallel share subagents.maxConcurrency with background agents: past the cap a task
 * call waits for a slot and says so on its call. A sync agent's own sync children take no slot (their parent
 * holds one and waits for them), so nesting never deadlocks.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AgentDefinition, AgentDirectory } from "../../src/core/tasks/agent-directory.js";
import { startHarness, waitForEvent, type Harness } from "../support/engine-harness.js";
import { hang, startScriptedServer, text, toolCalls, type CompletionRequest, type ScriptedResponse } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const builtin = { source: "builtin" as const, userInvocable: false, file: "test", modelInvocable: true };
const AGENTS: AgentDefinition[] = [
  { ...builtin, name: "explore", displayName: "Explore", description: "Search", tools: ["view"], systemPrompt: "You are the explore agent." },
  { ...builtin, name: "general-purpose", displayName: "General", description: "Anything", systemPrompt: "You are a general agent." },
];
const directory: AgentDirectory = {
  list: () => AGENTS,
  get: (name) => AGENTS.find((agent) => agent.name === name),
  modelInvocable: () => AGENTS,
  userInvocable: () => [],
};

const syncTasks = (agentType: string, prompts: string[], prefix: string) =>
  toolCalls(prompts.map((prompt, index) => ({ id: `${prefix}${index}`, name: "task", arguments: { description: prompt, prompt, agent_type: agentType } })));

/**
 * Answers by who asks: the main agent and the general agent from their queues; each explore agent (told apart
 * by its prompt) only when the test lets it answer.
 */
function routes() {
  const queues = new Map<string, ScriptedResponse[]>();
  const gates = new Map<string, () => void>();
  const arrived: string[] = [];
  const arrivals = new Set<() => void>();
  const responder = async (request: CompletionRequest): Promise<ScriptedResponse> => {
    const system = String(request.body.messages[0]?.content);
    if (request.headers["x-initiator"] !== "sub-agent" || system !== "You are the explore agent.") {
      const key = request.headers["x-initiator"] === "sub-agent" ? system : "main";
      return queues.get(key)?.shift() ?? text(`(nothing scripted for ${key})`);
    }
    const prompt = String(request.body.messages.at(-1)?.content);
    arrived.push(prompt);
    for (const listener of arrivals) listener();
    await new Promise<void>((resolve) => gates.set(prompt, resolve));
    return text(`${prompt} done`);
  };
  return {
    responder,
    arrived,
    main: (...responses: ScriptedResponse[]) => queues.set("main", [...(queues.get("main") ?? []), ...responses]),
    general: (...responses: ScriptedResponse[]) => queues.set("You are a general agent.", responses),
    /** Resolves once `n` explore agents have asked the model. */
    arrivals: (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => arrived.length >= n && (arrivals.delete(check), resolve());
        arrivals.add(check);
        check();
      }),
    release: (prompt: string) => gates.get(prompt)?.(),
  };
}

async function start(maxConcurrent: number) {
  const route = routes();
  const server = await startScriptedServer({ responder: route.responder });
  const started = await startHarness({ agents: directory, server, subagentLimits: { maxDepth: 6, maxConcurrent, maxTurns: 10 } });
  const close = started.close;
  started.close = async () => {
    await close();
    await server.close();
  };
  return { h: started, route };
}

const mainResults = (h: Harness) =>
  h
    .ofType("tool.execution_complete")
    .filter((event) => !event.agentId)
    .map((event) => String(event.data.result?.content ?? event.data.error?.message));

describe("sync agents and the concurrency cap", () => {
  it("with a cap of 2, the third of three parallel sync agents waits for a slot, shows it, and runs when one ends", async () => {
    const { h, route } = await start(2);
    harness = h;
    route.main(syncTasks("explore", ["A", "B", "C"], "c"), text("All three answered."));
    const run = h.session.send("three at once");
    const waiting = await waitForEvent(
      h,
      (event) => event.type === "tool.execution_progress" && event.data.progressMessage.includes("waiting for a free agent slot"),
    );
    await route.arrivals(2);
    expect(route.arrived).toHaveLength(2);
    const waiter = waiting.type === "tool.execution_progress" ? waiting.data.toolCallId : "";
    const [first] = route.arrived;
    route.release(first as string);
    await route.arrivals(3);
    const third = route.arrived[2] as string;
    expect(`c${["A", "B", "C"].indexOf(third)}`).toBe(waiter);
    for (const prompt of route.arrived.slice(1)) route.release(prompt);
    expect((await run).finalMessage).toBe("All three answered.");
    expect(
      mainResults(h)
        .map((result) => result.split("\n")[0])
        .sort(),
    ).toEqual(["A done", "B done", "C done"]);
  });

  it("an interrupt ends an agent that waits for a slot without starting it", async () => {
    const { h, route } = await start(1);
    harness = h;
    route.main(syncTasks("explore", ["P", "Q"], "i"), text("Back."));
    const run = h.session.send("two at once");
    await waitForEvent(h, (event) => event.type === "tool.execution_progress" && event.data.progressMessage.includes("waiting"));
    await route.arrivals(1);
    h.session.interrupt();
    expect((await run).outcome).toBe("aborted");
    expect(route.arrived).toHaveLength(1);
    expect(h.ofType("subagent.failed").map((event) => event.data.error)).toEqual(["interrupted by the user", "interrupted by the user"]);
    expect((await h.session.send("again")).finalMessage).toBe("Back.");
  });

  it("an agent waiting for a slot can be moved to the background: its call returns, and it runs when a slot frees", async () => {
    const { h, route } = await start(1);
    harness = h;
    route.main(syncTasks("explore", ["M1", "M2"], "m"), text("Main done."));
    const run = h.session.send("two at once");
    const waiting = await waitForEvent(h, (event) => event.type === "tool.execution_progress" && event.data.progressMessage.includes("waiting"));
    const waiter = waiting.type === "tool.execution_progress" ? waiting.data.toolCallId : "";
    await route.arrivals(1);
    expect(h.session.dispatch({ type: "background_agent", toolCallId: waiter })).toHaveLength(1);
    await waitForEvent(h, (event) => event.type === "subagent.started" && event.data.executionMode === "background");
    // Still no slot for it: the first agent holds the only one.
    expect(route.arrived).toHaveLength(1);
    route.release(route.arrived[0] as string);
    expect((await run).finalMessage).toBe("Main done.");
    const moved = h.ofType("tool.execution_complete").find((event) => event.data.toolCallId === waiter);
    expect(moved?.data.result?.content).toContain("moved this agent to the background");
    await route.arrivals(2);
    route.release(route.arrived[1] as string);
    await waitForEvent(h, (event) => event.type === "system.notification" && event.data.kind === "agent_completed");
    expect(h.ofType("subagent.started").map((event) => event.data.executionMode)).toEqual(["sync", "sync", "background"]);
  });

  it("a sync agent's own parallel sync agents take no slot: nesting under a cap of 1 finishes", async () => {
    const { h, route } = await start(1);
    harness = h;
    route.main(syncTasks("general-purpose", ["Split it."], "g"), text("Nested work done."));
    route.general(syncTasks("explore", ["X", "Y"], "e"), text("Both parts done."));
    const run = h.session.send("nest");
    await route.arrivals(2);
    for (const prompt of route.arrived) route.release(prompt);
    expect((await run).finalMessage).toBe("Nested work done.");
    expect(mainResults(h)[0]).toContain("Both parts done.");
    expect(h.ofType("tool.execution_progress").filter((event) => event.data.progressMessage.includes("waiting"))).toHaveLength(0);
  });

  it("a background agent holds the only slot: a sync agent waits until it is cancelled", async () => {
    const { h, route } = await start(1);
    harness = h;
    route.main(
      toolCalls([{ id: "bg", name: "task", arguments: { description: "bg", prompt: "general bg", agent_type: "general-purpose", mode: "background" } }]),
      text("Started."),
      syncTasks("explore", ["S"], "s"),
      text("Sync done."),
    );
    route.general(hang());
    await h.session.send("start a background agent");
    const run = h.session.send("now a sync one");
    await waitForEvent(h, (event) => event.type === "tool.execution_progress" && event.data.toolCallId === "s0" && event.data.progressMessage !== "");
    expect(route.arrived).toHaveLength(0);
    const [record] = h.session.engine.backgroundAgents;
    expect(h.session.dispatch({ type: "cancel_agent", agentId: record?.agentId as string })).toBe(true);
    await route.arrivals(1);
    route.release("S");
    expect((await run).finalMessage).toBe("Sync done.");
  });
});

/**
 * Subagent budgets against the scripted server: per agent (model calls per prompt, tokens, working time) and
 * per session (all subagents together). A hit stops the agent with the reason in its result and in
 * subagent.failed; a spent session budget refuses new agents.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AgentDefinition, AgentDirectory } from "../../src/core/tasks/agent-directory.js";
import { DEFAULT_SUBAGENT_LIMITS } from "../../src/core/tasks/limits.js";
import type { SubagentLimits } from "../../src/core/tasks/subagent-host.js";
import { startHarness, waitForEvent, type Harness } from "../support/engine-harness.js";
import { hang, startScriptedServer, text, toolCall } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const AGENTS: AgentDefinition[] = [
  {
    source: "builtin",
    userInvocable: false,
    file: "test",
    name: "explore",
    displayName: "Explore",
    description: "Fast read-only search",
    tools: ["glob"],
    systemPrompt: "You are the explore agent.",
    modelInvocable: true,
  },
];
const directory: AgentDirectory = {
  list: () => AGENTS,
  get: (name) => AGENTS.find((agent) => agent.name === name),
  modelInvocable: () => AGENTS,
  userInvocable: () => [],
};

const task = (args: Record<string, unknown> = {}, id = "call_task") =>
  toolCall("task", { description: "look around", prompt: "Find the answer.", agent_type: "explore", ...args }, { id });
const usage = (total: number) => ({ usage: { prompt_tokens: total - 10, completion_tokens: 10 } });
const mainResults = (h: Harness) =>
  h
    .ofType("tool.execution_complete")
    .filter((event) => !event.agentId)
    .map((event) => event.data);

async function start(limits: Partial<SubagentLimits>) {
  harness = await startHarness({ agents: directory, subagentLimits: { ...DEFAULT_SUBAGENT_LIMITS, ...limits } });
  return harness;
}

describe("subagent budgets", () => {
  it("a turn budget stops a runaway agent: the reason is in its result and in subagent.failed", async () => {
    const h = await start({ maxTurns: 2 });
    h.server.enqueue(task(), toolCall("glob", { pattern: "*" }), toolCall("glob", { pattern: "*" }), text("Gave up."));
    const result = await h.session.send("delegate");
    expect(result.finalMessage).toBe("Gave up.");
    const reason = "stopped by its budget: it reached its turn budget (2 model calls per prompt; --max-turns or subagents.maxTurns)";
    expect(h.ofType("subagent.failed")[0]?.data.error).toBe(reason);
    expect(JSON.stringify(mainResults(h)[0])).toContain(`did not finish: ${reason}`);
    // It stops before a third call: every turn_start in the log is a model call made.
    expect(h.ofType("assistant.turn_start")).toHaveLength(h.server.completionRequests.length);
    expect(h.ofType("assistant.turn_start").filter((event) => event.agentId)).toHaveLength(2);
    expect(h.ofType("subagent.started")[0]?.data.budget).toEqual({ maxTurns: 2 });
  });

  it("a token budget stops the agent once its calls have used it", async () => {
    const h = await start({ maxTokens: 1000 });
    h.server.enqueue(task(), toolCall("glob", { pattern: "*" }, usage(600)), toolCall("glob", { pattern: "*" }, usage(600)), text("Over."));
    await h.session.send("delegate");
    expect(h.ofType("subagent.failed")[0]?.data.error).toBe("stopped by its budget: it reached its token budget (1,000 tokens; subagents.maxTokens)");
    expect(h.ofType("subagent.started")[0]?.data.budget).toEqual({ maxTurns: 50, maxTokens: 1000 });
  });

  it("an answer that goes over the token budget is still delivered whole", async () => {
    const h = await start({ maxTokens: 100 });
    h.server.enqueue(task(), text("The answer.", usage(500)), text("Done."));
    await h.session.send("delegate");
    expect(h.ofType("subagent.completed")).toHaveLength(1);
    expect(mainResults(h)[0]?.result?.content).toMatch(/^The answer\./);
  });

  it("a time budget stops an agent that works too long", async () => {
    const h = await start({ maxDurationMs: 300 });
    h.server.enqueue(task(), hang(), text("Timed out."));
    await h.session.send("delegate");
    expect(h.ofType("subagent.failed")[0]?.data.error).toBe("stopped by its budget: it reached its time budget (300 ms; subagents.maxDurationMs)");
  });

  it("the session's budget is shared by all subagents; once spent, new agents are refused", async () => {
    const h = await start({ sessionMaxTurns: 2 });
    h.server.enqueue(task({}, "c1"), toolCall("glob", { pattern: "*" }), text("First done."), task({}, "c2"), text("ok"));
    await h.session.send("delegate");
    const [first, second] = mainResults(h);
    expect(first?.result?.content).toMatch(/^First done\./);
    expect(second?.error?.message).toBe(
      "No more subagents in this session: the session's subagents reached their turn budget (2 model calls in all; subagents.sessionMaxTurns). Do the task yourself instead.",
    );
  });

  it("a background agent over its budget fails with the reason, and the main agent is told", async () => {
    // The main agent and the background agent ask at once: answers are routed by the x-initiator header.
    const main = [task({ mode: "background", name: "bg" }), text("Started.")];
    const child = [toolCall("glob", { pattern: "*" }), text("never")];
    const server = await startScriptedServer({
      responder: (request) => (request.headers["x-initiator"] === "sub-agent" ? child.shift() : main.shift()) ?? text("(nothing scripted)"),
    });
    harness = await startHarness({ agents: directory, server, subagentLimits: { ...DEFAULT_SUBAGENT_LIMITS, maxTurns: 1 } });
    const h = harness;
    const close = h.close;
    h.close = async () => {
      await close();
      await server.close();
    };
    await h.session.send("start it");
    const failed = await waitForEvent(h, (event) => event.type === "subagent.failed");
    expect(failed.type === "subagent.failed" && failed.data.error).toContain("it reached its turn budget (1 model call");
    const notice = await waitForEvent(h, (event) => event.type === "system.notification");
    expect(notice.type === "system.notification" && notice.data.content).toContain("Background agent bg-1 (explore) failed: stopped by its budget");
    expect(h.session.engine.agentRecords[0]?.error).toContain("turn budget");
  });
});

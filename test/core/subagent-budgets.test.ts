/**
 * Subagent budgets against the scripted server: per agent (model calls per prompt, tokens, working time) and
 * per session (all subagents together). A hit stops the agent with the reason in its result and in
 * subagent.failed, after one last turn without tools whose report goes to the parent; a spent session
 * budget refuses new agents. The other runaway guard, for a subagent that repeats one call, is here too.
 */
import { afterEach, describe, expect, it } from "vitest";
import { GRACE_TURN_PROMPT } from "../../src/core/child-agent.js";
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

const childRequests = (h: Harness) => h.server.completionRequests.filter((request) => request.headers["x-initiator"] === "sub-agent");
/** The request of a grace turn: tool_choice none, the tools still offered, the report asked for last. */
function expectGraceRequest(h: Harness) {
  const grace = childRequests(h).at(-1)?.body;
  expect(grace?.tool_choice).toBe("none");
  expect(grace?.tools?.length).toBeGreaterThan(0);
  expect(grace?.messages.at(-1)).toMatchObject({ role: "user", content: GRACE_TURN_PROMPT });
}

async function start(limits: Partial<SubagentLimits>) {
  harness = await startHarness({ agents: directory, subagentLimits: { ...DEFAULT_SUBAGENT_LIMITS, ...limits } });
  return harness;
}

describe("subagent budgets", () => {
  it("a turn budget stops a runaway agent: one last turn without tools, its report and the reason go to the parent", async () => {
    const h = await start({ maxTurns: 2 });
    h.server.enqueue(
      task(),
      toolCall("glob", { pattern: "*" }),
      toolCall("glob", { pattern: "*.md" }),
      text("Report: no answer in the top folder."),
      text("Gave up."),
    );
    const result = await h.session.send("delegate");
    expect(result.finalMessage).toBe("Gave up.");
    const reason = "stopped by its budget: it reached its turn budget (2 model calls per prompt; --max-turns or subagents.maxTurns)";
    expect(h.ofType("subagent.failed")[0]?.data.error).toBe(reason);
    const delivered = mainResults(h)[0];
    expect(delivered?.success).toBe(false);
    expect(delivered?.error?.message).toMatch(
      new RegExp(
        `did not finish: ${reason.replace(/[()]/g, "\\$&")}\nIt was cut short and given one last turn without tools; its report of what it found:\n\nReport: no answer in the top folder\.$`,
      ),
    );
    // Two working calls, then the grace turn: every turn_start in the log is a model call made.
    expect(h.ofType("assistant.turn_start")).toHaveLength(h.server.completionRequests.length);
    expect(h.ofType("assistant.turn_start").filter((event) => event.agentId)).toHaveLength(3);
    expectGraceRequest(h);
    expect(
      h
        .ofType("user.message")
        .filter((event) => event.agentId)
        .map((event) => event.data.source),
    ).toEqual([undefined, "budget"]);
    expect(h.ofType("subagent.started")[0]?.data.budget).toEqual({ maxTurns: 2 });
  });

  it("a grace turn runs no tool, even when the model asks for one", async () => {
    const h = await start({ maxTurns: 1 });
    h.server.enqueue(task(), toolCall("glob", { pattern: "*" }), toolCall("glob", { pattern: "*.ts" }, { text: "Found nothing yet." }), text("ok"));
    await h.session.send("delegate");
    const childResults = h.ofType("tool.execution_complete").filter((event) => event.agentId);
    expect(childResults.map((event) => event.data.error?.code ?? "ok")).toEqual(["ok", "no_tools"]);
    expect(h.ofType("tool.execution_start").filter((event) => event.agentId)).toHaveLength(2);
    expect(mainResults(h)[0]?.error?.message).toMatch(/its report of what it found:\n\nFound nothing yet\.$/);
    expect(childRequests(h)).toHaveLength(2);
  });

  it("a token budget stops the agent once its calls have used it, after its grace turn", async () => {
    const h = await start({ maxTokens: 1000 });
    h.server.enqueue(
      task(),
      toolCall("glob", { pattern: "*" }, usage(600)),
      toolCall("glob", { pattern: "*.md" }, usage(600)),
      text("Token report."),
      text("Over."),
    );
    await h.session.send("delegate");
    expect(h.ofType("subagent.failed")[0]?.data.error).toBe("stopped by its budget: it reached its token budget (1,000 tokens; subagents.maxTokens)");
    expect(h.ofType("subagent.started")[0]?.data.budget).toEqual({ maxTurns: 50, maxTokens: 1000 });
    expectGraceRequest(h);
    expect(mainResults(h)[0]?.error?.message).toMatch(/Token report\.$/);
  });

  it("an answer that goes over the token budget is still delivered whole", async () => {
    const h = await start({ maxTokens: 100 });
    h.server.enqueue(task(), text("The answer.", usage(500)), text("Done."));
    await h.session.send("delegate");
    expect(h.ofType("subagent.completed")).toHaveLength(1);
    expect(mainResults(h)[0]?.result?.content).toMatch(/^The answer\./);
  });

  it("a time budget stops an agent that works too long; its grace turn reports", async () => {
    const h = await start({ maxDurationMs: 300 });
    h.server.enqueue(task(), hang(), text("Out of time, found little."), text("Timed out."));
    await h.session.send("delegate");
    expect(h.ofType("subagent.failed")[0]?.data.error).toBe("stopped by its budget: it reached its time budget (300 ms; subagents.maxDurationMs)");
    expectGraceRequest(h);
    expect(mainResults(h)[0]?.error?.message).toMatch(/Out of time, found little\.$/);
  });

  it("a grace turn after the time budget is itself limited (to the budget, at most a minute)", async () => {
    const h = await start({ maxDurationMs: 300 });
    h.server.enqueue(task(), hang(), hang(), text("Timed out."));
    const started = Date.now();
    const result = await h.session.send("delegate");
    expect(result.finalMessage).toBe("Timed out.");
    expect(childRequests(h)).toHaveLength(2);
    expect(mainResults(h)[0]?.error?.message).toBe(
      "The Explore agent did not finish: stopped by its budget: it reached its time budget (300 ms; subagents.maxDurationMs)",
    );
    expect(Date.now() - started).toBeLessThan(30_000);
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

  it("a background agent over its budget fails with the reason, and the main agent is told; its report is its last answer", async () => {
    // The main agent and the background agent ask at once: answers are routed by the x-initiator header.
    const main = [task({ mode: "background", name: "bg" }), text("Started.")];
    const child = [toolCall("glob", { pattern: "*" }), text("Background report.")];
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
    expect(notice.type === "system.notification" && notice.data.content).toContain("Its answer:\n\nBackground report.");
    expect(h.session.engine.agentRecords[0]).toMatchObject({ latestResponse: "Background report.", error: expect.stringContaining("turn budget") });
  });
});

describe("a subagent that repeats itself", () => {
  it("in an autopilot session is stopped without asking anyone, and the parent is told why", async () => {
    harness = await startHarness({ agents: directory, mode: "autopilot", interactive: true, subagentLimits: DEFAULT_SUBAGENT_LIMITS });
    const h = harness;
    const again = () => toolCall("glob", { pattern: "*" });
    h.server.enqueue(task(), again(), again(), again(), again(), toolCall("task_complete", { summary: "Done." }));
    await h.session.send("delegate");
    expect(h.ofType("user_input.requested")).toHaveLength(0);
    const codes = h
      .ofType("tool.execution_complete")
      .filter((event) => event.agentId)
      .map((event) => event.data.error?.code ?? "ok");
    expect(codes).toEqual(["ok", "ok", "repeated_call", "doom_loop"]);
    expect(mainResults(h)[0]?.error?.message).toBe(
      "The Explore agent did not finish: The agent called glob with the same arguments 4 times in a row, repeating it after it was told to change approach, so the run was stopped.",
    );
    expect(childRequests(h)).toHaveLength(4);
  });
});

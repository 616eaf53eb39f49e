/**
 * /fleet against the scripted server: the task becomes three todos (one waiting for the other two), the two
 * independent ones run at the same time as background agents, the third only once both are done, every
 * todo ends done and linked to its agent, and the run ends with the model's answer (task_complete in autopilot).
 */
import { realpathSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentDefinition, AgentDirectory } from "../../src/core/tasks/agent-directory.js";
import { startHarness, waitForEvent, type Harness } from "../support/engine-harness.js";
import { fleetModel } from "../support/fleet-model.js";
import { startScriptedServer, text, toolCall, type CompletionRequest, type ScriptedResponse } from "../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const general: AgentDefinition = {
  source: "builtin",
  userInvocable: false,
  file: "test",
  name: "general-purpose",
  displayName: "General",
  description: "Does anything",
  systemPrompt: "You are a general agent.",
  modelInvocable: true,
};
const directory: AgentDirectory = {
  list: () => [general],
  get: (name) => (name === general.name ? general : undefined),
  modelInvocable: () => [general],
  userInvocable: () => [],
};

async function startFleet(mode?: "autopilot") {
  let dir: string | undefined;
  const model = fleetModel({ databaseFile: () => (dir ? path.join(dir, "session.db") : undefined) });
  const server = await startScriptedServer({ responder: model.responder });
  const h = await startHarness({ agents: directory, server, ...(mode ? { mode } : {}) });
  dir = h.session.dir;
  const close = h.close;
  h.close = async () => {
    await close();
    await server.close();
  };
  return { h, model };
}

describe("/fleet", () => {
  it("runs three todos, two in parallel and the third after both, and completes", async () => {
    const { h, model } = await startFleet();
    harness = h;
    const routed = await h.session.dispatch({ type: "input", text: "/fleet Build the two parts and join them" });
    if (routed.kind !== "prompt") throw new Error(`expected a prompt, got ${routed.kind}`);
    const result = await routed.run;

    // Fleet mode is the orchestration prompt, not autopilot: the model's answer ends the run.
    expect(result.outcome).toBe("completed");
    expect(result.finalMessage).toBe("All 3 todos are done.");
    expect(h.session.mode).toBe("interactive");
    expect(h.ofType("session.mode_changed")).toHaveLength(0);
    expect(h.ofType("session.info").map((event) => event.data.message)).toContain("Fleet deployed: Build the two parts and join them");
    const prompt = h.ofType("user.message").find((event) => !event.agentId)?.data.content ?? "";
    expect(prompt).toContain("fleet mode");
    expect(prompt).toContain("Build the two parts and join them");
    expect(prompt).toContain("then answer with a short summary");
    expect(prompt).not.toContain("task_complete");

    // The two independent todos ran at the same time, as background agents started in one response.
    expect(model.parallel).toBe(true);
    const started = h.ofType("subagent.started");
    expect(started.map((event) => event.data.executionMode)).toEqual(["background", "background", "background"]);
    expect(started[0]?.data.toolCallId).not.toBe(started[1]?.data.toolCallId);
    // The third began only when both were done.
    const seenByJoin = model.seenAtStart.get("join-ab") ?? [];
    expect(seenByJoin.filter((todo) => todo.id !== "join-ab").map((todo) => todo.status)).toEqual(["done", "done"]);

    expect(await h.session.engine.todos()).toEqual([
      { id: "part-a", title: "Write part A", description: "Do: Write part A", status: "done", dependsOn: [], agentId: "part-a-1" },
      { id: "part-b", title: "Write part B", description: "Do: Write part B", status: "done", dependsOn: [], agentId: "part-b-1" },
      { id: "join-ab", title: "Join A and B", description: "Do: Join A and B", status: "done", dependsOn: ["part-a", "part-b"], agentId: "join-ab-1" },
    ]);
    // Every change was announced (ephemeral: streamed, never written to the log).
    const changes = h.ofType("session.todos_changed");
    expect(changes.length).toBeGreaterThanOrEqual(7);
    expect(changes.every((event) => event.ephemeral === true)).toBe(true);
  });

  it("typed in autopilot, stays in autopilot and finishes with task_complete", async () => {
    const { h } = await startFleet("autopilot");
    harness = h;
    const routed = await h.session.dispatch({ type: "input", text: "/fleet Build the two parts and join them" });
    if (routed.kind !== "prompt") throw new Error(`expected a prompt, got ${routed.kind}`);
    const result = await routed.run;
    expect(result.outcome).toBe("task_complete");
    expect(h.session.mode).toBe("autopilot");
    const prompt = h.ofType("user.message").find((event) => !event.agentId)?.data.content ?? "";
    expect(prompt).toContain("then call `task_complete`");
  });

  it("reads the todo list back from the session folder on resume", async () => {
    const { h } = await startFleet();
    harness = h;
    const routed = await h.session.dispatch({ type: "input", text: "/fleet Build the two parts and join them" });
    if (routed.kind === "prompt") await routed.run;
    await h.session.dispatch({ type: "settle_background", timeoutMs: 10_000 });
    const id = h.session.id;
    h.session.shutdown();
    const resumed = await startHarness({ agents: directory, server: h.server, home: h.home, cwd: h.cwd, resumeId: id });
    try {
      const todos = await resumed.session.engine.todos();
      expect(todos.map((todo) => [todo.id, todo.status, todo.agentId])).toEqual([
        ["part-a", "done", "part-a-1"],
        ["part-b", "done", "part-b-1"],
        ["join-ab", "done", "join-ab-1"],
      ]);
    } finally {
      resumed.session.shutdown();
    }
  });

  it("asks for a task when none is given, without a model call", async () => {
    const { h } = await startFleet();
    harness = h;
    await h.session.dispatch({ type: "input", text: "/fleet" });
    expect(h.ofType("session.warning").at(-1)?.data.message).toBe("Usage: /fleet <task>: what should the fleet do?");
    expect(h.session.mode).toBe("interactive");
    expect(h.server.completionRequests).toHaveLength(0);
  });
});

describe("autopilot with background agents", () => {
  it("a turn that ends while an agent runs waits for its answer instead of nudging the model on", async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const main: ScriptedResponse[] = [
      toolCall("task", { description: "Do the work", prompt: "[worker] do it", agent_type: "general-purpose", mode: "background", name: "worker" }),
      text("Dispatched; waiting for the worker."),
      toolCall("task_complete", { summary: "The worker did it." }),
    ];
    const responder = async (request: CompletionRequest): Promise<ScriptedResponse> => {
      const first = request.body.messages.find((message) => message.role === "user");
      if (String(first?.content).includes("[worker]")) {
        await released;
        return text("Worker: done.");
      }
      return main.shift() ?? text("(nothing scripted)");
    };
    const server = await startScriptedServer({ responder });
    const h = await startHarness({ agents: directory, server, mode: "autopilot" });
    harness = h;
    const closeHarness = h.close;
    h.close = async () => {
      await closeHarness();
      await server.close();
    };
    const running = h.session.send("get the work done");
    await waitForEvent(h, (event) => event.type === "assistant.message" && !event.agentId && event.data.content === "Dispatched; waiting for the worker.");
    release();
    const result = await running;
    expect(result.outcome).toBe("task_complete");
    expect(result.continuations).toBe(0);
    expect(h.ofType("user.message").filter((event) => event.data.isAutopilotContinuation)).toEqual([]);
    // The model call after the wait carried the agent's news.
    const last = h.server.completionRequests
      .filter((request) => !String(request.body.messages.find((m) => m.role === "user")?.content).includes("[worker]"))
      .at(-1);
    expect(JSON.stringify(last?.body.messages.at(-1))).toContain("worker-1");
  });
});

describe("interrupting a waiting coordinator", () => {
  it("Esc while autopilot waits for a background agent ends the run at once; the agent keeps working", async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const main: ScriptedResponse[] = [
      toolCall("task", { description: "Slow work", prompt: "[slow] do it", agent_type: "general-purpose", mode: "background", name: "slow" }),
      text("Waiting for it."),
    ];
    const server = await startScriptedServer({
      responder: async (request: CompletionRequest) => {
        if (String(request.body.messages.find((message) => message.role === "user")?.content).includes("[slow]")) {
          await released;
          return text("Slow: done.");
        }
        return main.shift() ?? text("(nothing scripted)");
      },
    });
    const h = await startHarness({ agents: directory, server, mode: "autopilot" });
    harness = h;
    const closeHarness = h.close;
    h.close = async () => {
      release();
      await closeHarness();
      await server.close();
    };
    const running = h.session.send("start the slow work");
    await waitForEvent(h, (event) => event.type === "assistant.message" && !event.agentId && event.data.content === "Waiting for it.");
    h.session.interrupt();
    expect((await running).outcome).toBe("aborted");
    expect(h.session.engine.backgroundAgents.map((agent) => agent.agentId)).toEqual(["slow-1"]);
  });
});

describe("a plan accepted as a fleet", () => {
  it("exit_plan_mode with showFleet offers Autopilot + /fleet; choosing it deploys a fleet on the plan", async () => {
    const h = await startHarness({ mode: "plan", interactive: true, agents: directory });
    harness = h;
    const plan = path.join(realpathSync(h.session.dir), "plan.md");
    h.server.enqueue(
      toolCall("create", { path: plan, file_text: "# Plan\n1. Part A\n2. Part B\n" }),
      toolCall("exit_plan_mode", { summary: "- two parts", showFleet: true, recommendedAction: "autopilot_fleet" }),
      toolCall("task_complete", { summary: "Done." }),
    );
    const run = h.session.send("plan two parts");
    const requested = await waitForEvent(h, (event) => event.type === "exit_plan_mode.requested");
    if (requested.type !== "exit_plan_mode.requested") throw new Error("unreachable");
    expect(requested.data).toMatchObject({ actions: ["autopilot", "autopilot_fleet", "interactive", "exit_only"], recommendedAction: "autopilot_fleet" });
    h.session.respond(requested.data.requestId, { approved: true, selectedAction: "autopilot_fleet" });
    expect((await run).outcome).toBe("task_complete");
    expect(h.session.mode).toBe("autopilot");
    expect(h.ofType("session.info").map((event) => event.data.message)).toContain(`Fleet deployed: Implement the plan in ${plan}`);
    const review = h.ofType("tool.execution_complete")[1]?.data.result?.content ?? "";
    expect(review).toContain("Plan approved! Exited plan mode.");
    expect(review).toContain("fleet mode");
  });

  it("without showFleet the fleet is not offered, even when recommended", async () => {
    const h = await startHarness({ mode: "plan", interactive: true, agents: directory });
    harness = h;
    h.server.enqueue(toolCall("exit_plan_mode", { summary: "- one part", recommendedAction: "autopilot_fleet" }), text("Stopped."));
    const run = h.session.send("plan it");
    const requested = await waitForEvent(h, (event) => event.type === "exit_plan_mode.requested");
    if (requested.type !== "exit_plan_mode.requested") throw new Error("unreachable");
    expect(requested.data).toMatchObject({ actions: ["autopilot", "interactive", "exit_only"], recommendedAction: "autopilot" });
    h.session.respond(requested.data.requestId, { approved: true, selectedAction: "exit_only" });
    await run;
  });
});

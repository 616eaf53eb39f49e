/**
 * What faces read in the session's state that no event carried before: the todo list (session.todos_changed
 * carries it, and a resumed session reads it back), the background shells (session.background_tasks_changed
 * names them), and what the process has used (session.usage_checkpoint after each model call).
 */
import { afterEach, describe, expect, it } from "vitest";
import { startHarness, waitForEvent, type Harness } from "../../support/engine-harness.js";
import { text, toolCall } from "../../support/scripted-server.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const INSERT = "INSERT INTO todos (id, title) VALUES ('read', 'Read the code'), ('fix', 'Fix it'); INSERT INTO todo_deps VALUES ('fix', 'read');";

describe("the session's state", () => {
  it("holds the todo list the sql tool wrote, from the event that carries it, and again after a resume", async () => {
    harness = await startHarness({ allowAllTools: true });
    harness.server.enqueue(toolCall("sql", { description: "plan", query: INSERT }), text("Planned."));
    await harness.session.send("plan it");
    const told = harness.ofType("session.todos_changed").at(-1)?.data.todos;
    const expected = [
      { id: "read", title: "Read the code", description: "", status: "pending", dependsOn: [] },
      { id: "fix", title: "Fix it", description: "", status: "pending", dependsOn: ["read"] },
    ];
    expect(told).toEqual(expected);
    expect(harness.session.engine.state.todos).toEqual(expected);

    const first = harness;
    first.session.shutdown();
    await first.session.engine.whenEnded();
    // The same home, folder and server (the first harness closes them after the test).
    const resumed = await startHarness({ server: first.server, home: first.home, cwd: first.cwd, resumeId: first.session.id });
    try {
      await waitForEvent(resumed, () => resumed.session.engine.state.todos.length === 2);
      expect(resumed.session.engine.state.todos).toEqual(expected);
    } finally {
      await resumed.close();
    }
  });

  it("names the background shells while they run, and drops one that is stopped", async () => {
    harness = await startHarness({ allowAllTools: true });
    harness.server.enqueue(toolCall("bash", { command: "sleep 30", description: "wait a while", mode: "async", shellId: "sleeper" }), text("Started."));
    await harness.session.send("start it");
    expect(harness.session.engine.state.shells).toEqual([{ shellId: "sleeper", description: "wait a while" }]);
    expect(await harness.session.dispatch({ type: "stop_shell", shellId: "sleeper" })).toBe(true);
    const h = harness;
    await waitForEvent(h, () => h.session.engine.state.shells.length === 0);
    expect(h.ofType("session.background_tasks_changed").map((event) => event.data.shells)).toEqual([[{ shellId: "sleeper", description: "wait a while" }], []]);
  });

  it("holds this process's usage after each model call, as the engine's records have it", async () => {
    harness = await startHarness();
    harness.server.enqueue(text("One."), text("Two."));
    await harness.session.send("first");
    await harness.session.send("second");
    const { current } = harness.session.engine.state.usage;
    const { metrics } = harness.session.engine;
    expect(harness.ofType("session.usage_checkpoint")).toHaveLength(2);
    expect(current).toMatchObject({ requests: 2, completedCalls: 2, apiDurationMs: metrics.totalApiDurationMs, modelMetrics: metrics.modelMetrics });
    await harness.session.dispatch({ type: "input", text: "/usage" });
    expect(harness.ofType("session.info").at(-1)?.data.message).toMatch(/Requests {7}2\n/);
  });
});

/**
 * A session's state is the same whether it was folded live (every event, ephemeral ones included, as the
 * session ran) or folded from its log afterwards (what a resume does): for real sessions of the real engine
 * against the scripted server, across a resume. Only what belongs to one process is left out of the
 * comparison: the permissions in force, the queue, what runs, the MCP servers and the todo list.
 */
import path from "node:path";
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionState } from "../../../src/core/state/session-state.js";
import { foldEvents } from "../../../src/core/state/state-fold.js";
import { readEventLog } from "../../../src/session/event-log-reader.js";
import { agentDirectory, EXPLORE_AGENT } from "../../support/agent-directory.js";
import { useAgentQueues } from "../../support/e2e-workspace.js";
import { startHarness, tempDir, waitForEvent, type Harness } from "../../support/engine-harness.js";
import { startScriptedServer, text, toolCall, type ScriptedServer } from "../../support/scripted-server.js";

const agents = agentDirectory([EXPLORE_AGENT]);

/** What a log can tell: everything but this process's own facts. */
function fromLog(state: SessionState) {
  const { permissions: _permissions, busy: _busy, queue: _queue, shells: _shells, mcpServers: _mcp, todos: _todos, todosAsWritten: _written, ...rest } = state;
  return rest;
}

const queues = useAgentQueues();
let server: ScriptedServer;
let home: string;
let cwd: string;
beforeAll(async () => {
  server = await startScriptedServer({ responder: (request) => queues.responder(request) });
  home = tempDir("state-home-");
  cwd = tempDir("state-cwd-");
});
afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

/** Ends the session as a person would, and returns its live state once session.shutdown is written. */
async function end(harness: Harness): Promise<SessionState> {
  harness.session.shutdown();
  await harness.session.engine.whenEnded();
  return harness.session.engine.state;
}

const logState = (harness: Harness) => foldEvents(readEventLog(harness.store.eventsFileOf(harness.session.id)).events);
const task = (id: string, mode: "sync" | "background", name: string) =>
  toolCall("task", { description: `${mode} look`, prompt: "Find the answer.", agent_type: "explore", mode, name }, { id });

describe("the session state: live fold = fold of the log", () => {
  let id = "";

  it("for a session with a file written, modes, a model switch, a sync and a background agent", async () => {
    const harness = await startHarness({ agents, server, home, cwd, allowAllTools: true, interactive: true });
    queues.main.push(toolCall("create", { path: path.join(cwd, "a.txt"), file_text: "one\ntwo\n" }), text("Created it."));
    await harness.session.send("make a file");
    harness.session.setMode("plan");
    harness.session.setMode("interactive");
    queues.main.push(task("call_sync", "sync", "finder"), text("The sync one found it."));
    queues.child.push(text("Sync answer."));
    await harness.session.send("look for it");
    queues.main.push(task("call_bg", "background", "bg"), text("Started it."), text("Heard from it."));
    queues.child.push(text("Background answer."));
    await harness.session.send("look in the background");
    // The agent answers and waits for a follow-up (idle); the main agent gets a turn for its answer.
    await waitForEvent(harness, (event) => event.type === "subagent.completed" && event.data.toolCallId === "call_bg");
    await waitForEvent(harness, (event) => event.type === "assistant.message" && event.data.content === "Heard from it.");
    await waitForEvent(harness, () => !harness.session.engine.state.busy);
    harness.session.setModel("other-model");
    expect(harness.session.engine.state.agents.map((agent) => [agent.id, agent.status])).toEqual([
      ["finder-1", "completed"],
      ["bg-1", "idle"],
    ]);

    const live = await end(harness);
    id = harness.session.id;
    expect(fromLog(logState(harness))).toEqual(fromLog(live));
    // And it says what happened.
    expect(live).toMatchObject({ mode: "interactive", model: "other-model", hasConversation: true, turns: harness.ofType("assistant.turn_start").length });
    expect(live.agents.map((agent) => [agent.id, agent.status, agent.answers])).toEqual([
      ["finder-1", "completed", ["Sync answer."]],
      ["bg-1", "completed", ["Background answer."]],
    ]);
    expect(live.usage.current).toMatchObject({ codeChanges: { linesAdded: 2, filesModified: [path.join(cwd, "a.txt")] }, backgroundAgents: 1 });
    expect(live.usage.current.requests).toBe(server.completionRequests.length);
    expect(live.usage.earlier?.processes).toBe(1);
  });

  it("across a resume: the earlier process's record, this one's, the agents as they ended", async () => {
    const harness = await startHarness({ agents, server, home, cwd, resumeId: id });
    expect(harness.session.engine.state.usage.earlier?.processes).toBe(1);
    expect(harness.session.engine.state.agents.map((agent) => agent.status)).toEqual(["completed", "completed"]);
    queues.main.push(text("Again."));
    await harness.session.send("once more");
    const live = await end(harness);
    expect(fromLog(logState(harness))).toEqual(fromLog(live));
    expect(live.usage.earlier?.processes).toBe(2);
    expect(live.usage.current.requests).toBe(1);
    expect(live.model).toBe("scripted-model");
  });
});

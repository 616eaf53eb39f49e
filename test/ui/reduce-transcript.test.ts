import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/protocol/events/index.js";
import { reduceTranscript, shortenForTranscript } from "../../src/ui/state/reduce-transcript.js";
import { initialTranscript } from "../../src/ui/state/transcript-types.js";

let counter = 0;
const event = (type: string, data: Record<string, unknown>): SessionEvent =>
  ({ id: `e${++counter}`, timestamp: new Date(0).toISOString(), parentId: null, type, data }) as unknown as SessionEvent;

const reduce = (...events: SessionEvent[]) =>
  events.reduce((state, next) => reduceTranscript(state, next, 0), initialTranscript({ mode: "interactive", model: "m" }));

describe("the transcript reducer", () => {
  it("moves finished paragraphs of a streaming answer into items early, keeping the tail live", () => {
    const state = reduce(
      event("assistant.message_delta", { messageId: "m1", deltaContent: "First paragraph.\n\nSecond par" }),
      event("assistant.message_delta", { messageId: "m1", deltaContent: "agraph still coming" }),
    );
    expect(state.items).toEqual([expect.objectContaining({ kind: "assistant", markdown: "First paragraph." })]);
    expect(state.live?.text).toBe("Second paragraph still coming");
    const done = reduceTranscript(state, event("assistant.message", { messageId: "m1", content: "First paragraph.\n\nSecond paragraph still coming" }), 0);
    expect(done.items.map((item) => item.kind === "assistant" && item.markdown)).toEqual(["First paragraph.", "Second paragraph still coming"]);
    expect(done.live).toBeUndefined();
  });

  it("does not cut inside a code fence", () => {
    const state = reduce(event("assistant.message_delta", { messageId: "m1", deltaContent: "```js\nconst a = 1;\n\nconst b = 2;\n" }));
    expect(state.items).toHaveLength(0);
  });

  it("hides the `!cmd` output handed to the model (the tool item shows it)", () => {
    const state = reduce(event("user.message", { content: "<user_shell_command_output>…</user_shell_command_output>", source: "shell", agentMode: "shell" }));
    expect(state.items).toHaveLength(0);
  });

  it("shortens a huge prompt in the transcript but not what is sent", () => {
    const big = Array.from({ length: 50_000 }, (_, index) => `line ${index}`).join("\n");
    const state = reduce(event("user.message", { content: big }));
    const item = state.items[0];
    expect(item?.kind === "user" && item.text.split("\n").length).toBeLessThan(20);
    expect(item?.kind === "user" && item.text).toContain("50000 lines");
    expect(shortenForTranscript("short")).toBe("short");
  });

  it("tracks running tools and turns a completion into an item with the diff", () => {
    const state = reduce(
      event("tool.execution_start", { toolCallId: "t1", toolName: "edit", arguments: { path: "/a.ts" }, toolTitle: "/a.ts" }),
      event("tool.execution_partial_result", { toolCallId: "t1", partialOutput: "working" }),
    );
    expect(state.running).toEqual([expect.objectContaining({ toolCallId: "t1", title: "/a.ts", output: "working" })]);
    const done = reduceTranscript(
      state,
      event("tool.execution_complete", { toolCallId: "t1", success: true, result: { content: "File updated.", detailedContent: "@@ -1 +1 @@\n-a\n+b" } }),
      0,
    );
    expect(done.running).toEqual([]);
    expect(done.items[0]).toMatchObject({ kind: "tool", status: "success", summary: "File updated.", diff: "@@ -1 +1 @@\n-a\n+b" });
  });

  it("queues permission requests and drops them when answered", () => {
    const request = { kind: "write", fileName: "/a", diff: "", intention: "x" };
    const state = reduce(
      event("permission.requested", { requestId: "r1", permissionRequest: request }),
      event("permission.requested", { requestId: "r2", permissionRequest: request }),
    );
    expect(state.permissions.map((pending) => pending.requestId)).toEqual(["r1", "r2"]);
    expect(
      reduceTranscript(state, event("permission.completed", { requestId: "r1", result: { kind: "approved" } }), 0).permissions.map(
        (pending) => pending.requestId,
      ),
    ).toEqual(["r2"]);
  });

  it("feeds the background panel from sub-agent events", () => {
    const started = reduce(
      event("subagent.started", {
        toolCallId: "c1",
        agentName: "explore",
        agentDisplayName: "Explore",
        agentDescription: "Find the auth code",
        agentType: "explore",
      }),
    );
    expect(started.background).toEqual([expect.objectContaining({ id: "c1", name: "Explore", status: "running", intent: "Find the auth code" })]);
    const done = reduceTranscript(
      started,
      event("subagent.completed", { toolCallId: "c1", agentName: "explore", agentDisplayName: "Explore", durationMs: 4000 }),
      0,
    );
    expect(done.background[0]?.status).toBe("completed");
    expect(done.items.at(-1)).toMatchObject({ kind: "subagent", status: "completed", detail: "4 s" });
  });

  it("keeps a background agent's pending questions when the main agent goes idle (they would hang unseen)", () => {
    const permissionRequest = { kind: "shell", fullCommandText: "touch x", intention: "Touch", commands: [], possiblePaths: [], possibleUrls: [] };
    const asked = reduce(
      { ...event("permission.requested", { requestId: "main", permissionRequest }) },
      { ...event("permission.requested", { requestId: "sub", permissionRequest }), agentId: "writer-1" } as SessionEvent,
      { ...event("user_input.requested", { requestId: "sub-q", question: "Which?" }), agentId: "writer-1" } as SessionEvent,
    );
    const idle = reduceTranscript(asked, event("session.idle", {}), 0);
    expect(idle.permissions.map((pending) => pending.requestId)).toEqual(["sub"]);
    expect(idle.questions.map((pending) => pending.requestId)).toEqual(["sub-q"]);
  });

  it("remembers which MCP server asks for a form; ask_user's form has none", () => {
    const requestedSchema = { type: "object", properties: { name: { type: "string" } } };
    const state = reduce(
      event("elicitation.requested", { requestId: "r1", message: "Name?", requestedSchema, elicitationSource: "mini", mode: "form" }),
      event("elicitation.requested", { requestId: "r2", message: "Pick", requestedSchema, elicitationSource: "ask_user" }),
    );
    expect(state.questions[0]).toMatchObject({ kind: "elicitation", server: "mini" });
    expect(state.questions[1]).not.toHaveProperty("server");
  });

  it("shows a finished task once: task_complete's summary, not also its tool line", () => {
    const state = reduce(
      event("tool.execution_start", { toolCallId: "t1", toolName: "task_complete", arguments: { summary: "Done it." } }),
      event("tool.execution_complete", { toolCallId: "t1", success: true, result: { content: "Task marked complete." } }),
      event("session.task_complete", { summary: "Done it.", success: true }),
    );
    expect(state.items.map((item) => item.kind)).toEqual(["task-complete"]);
    expect(state.running).toEqual([]);
  });

  it("shows a cancelled background agent as cancelled, not failed (as /tasks does)", () => {
    const started = reduce(event("subagent.started", { toolCallId: "c1", agentName: "explore", agentDisplayName: "Explore", agentType: "explore" }));
    const cancelled = reduceTranscript(
      started,
      event("subagent.failed", { toolCallId: "c1", agentName: "explore", agentDisplayName: "Explore", error: "cancelled" }),
      0,
    );
    expect(cancelled.background[0]?.status).toBe("cancelled");
    const failed = reduceTranscript(
      started,
      event("subagent.failed", { toolCallId: "c1", agentName: "explore", agentDisplayName: "Explore", error: "boom" }),
      0,
    );
    expect(failed.background[0]?.status).toBe("failed");
  });

  it("shows a background agent cancelled with a reason as cancelled", () => {
    const state = reduce(
      event("subagent.started", { toolCallId: "c1", agentName: "explore", agentDisplayName: "Explore", agentType: "explore", executionMode: "background" }),
      event("subagent.failed", {
        toolCallId: "c1",
        agentName: "explore",
        agentDisplayName: "Explore",
        error: "cancelled: the session ended while it was running",
      }),
    );
    expect(state.background[0]?.status).toBe("cancelled");
  });

  it("keeps an agent that answered idle in the panel, and completed once it leaves the active list", () => {
    const started = event("subagent.started", {
      toolCallId: "c1",
      agentName: "explore",
      agentDisplayName: "Explore",
      agentType: "explore",
      executionMode: "background",
    });
    const idle = reduce(
      started,
      event("session.background_tasks_changed", { agents: [{ toolCallId: "c1", agentId: "finder-1", status: "idle" }] }),
      event("subagent.completed", { toolCallId: "c1", agentName: "explore", agentDisplayName: "Explore", durationMs: 2000 }),
    );
    expect(idle.background[0]).toMatchObject({ name: "finder-1", status: "idle" });
    expect(idle.items.at(-1)).toMatchObject({ kind: "subagent", name: "finder-1", status: "completed" });
    const woken = reduceTranscript(
      idle,
      event("session.background_tasks_changed", { agents: [{ toolCallId: "c1", agentId: "finder-1", status: "running" }] }),
      0,
    );
    expect(woken.background[0]?.status).toBe("running");
    const finished = reduceTranscript(
      reduceTranscript(woken, event("session.background_tasks_changed", { agents: [{ toolCallId: "c1", agentId: "finder-1", status: "idle" }] }), 0),
      event("session.background_tasks_changed", { agents: [] }),
      0,
    );
    expect(finished.background[0]?.status).toBe("completed");
  });

  it("names a background agent by its id in a resumed history too (from its own events), not its display name", () => {
    const agentEvent = (type: string, data: Record<string, unknown>) => ({ ...event(type, data), agentId: "finder-1" }) as SessionEvent;
    const state = reduce(
      event("subagent.started", { toolCallId: "c1", agentName: "explore", agentDisplayName: "Explore", agentType: "explore", executionMode: "background" }),
      agentEvent("assistant.turn_start", { turnId: "1", parentToolCallId: "c1" }),
      event("subagent.failed", {
        toolCallId: "c1",
        agentName: "explore",
        agentDisplayName: "Explore",
        error: "interrupted: the session ended while the agent was running",
      }),
    );
    expect(state.items.at(-1)).toMatchObject({ kind: "subagent", name: "finder-1", status: "failed" });
  });

  it("shows an answer cut by the output limit and its continuation with a notice between, not the request to the model", () => {
    const state = reduce(
      event("assistant.message", { messageId: "m1", content: "The first half", finishReason: "length" }),
      event("system.notification", { kind: "output_limit", content: "Your previous answer was cut off by the output limit. Continue it…" }),
      event("assistant.message", { messageId: "m2", content: "and the rest." }),
      event("system.notification", { kind: "agent_completed", content: "Background agent bg-1 has finished" }),
    );
    expect(state.items.map((item) => (item.kind === "assistant" ? item.markdown : item.kind === "notice" ? item.text : item.kind))).toEqual([
      "The first half",
      "↻ The answer reached the output limit; it continues",
      "and the rest.",
      "Background agent bg-1 has finished",
    ]);
  });
});

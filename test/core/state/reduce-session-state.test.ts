/**
 * The session state's reducer, event by event: each row is a sequence of events and what the state must say
 * after it. Then what makes it cheap on the hot path: streamed deltas and events that change nothing return
 * the very same state, and a change copies only the slice it touches.
 */
import { describe, expect, it } from "vitest";
import { beginProcess, initialSessionState, type SessionState } from "../../../src/core/state/session-state.js";
import { reduceSessionState } from "../../../src/core/state/reduce-session-state.js";
import { foldEvents } from "../../../src/core/state/state-fold.js";
import type { EventData, EventType, SessionEvent } from "../../../src/protocol/events/index.js";
import { isEphemeralEventType } from "../../../src/protocol/events/ephemeral.js";

let clock = Date.parse("2025-01-01T00:00:00.000Z");
let counter = 0;
/** An event as the sink makes it: `at` in seconds after the start; `agentId` for a subagent's own. */
function ev<T extends EventType>(type: T, data: EventData<T>, options: { agentId?: string; at?: number } = {}): SessionEvent {
  const timestamp = new Date(options.at !== undefined ? clock + options.at * 1000 : clock + ++counter).toISOString();
  return {
    id: `e${++counter}`,
    timestamp,
    parentId: null,
    ...(isEphemeralEventType(type) ? { ephemeral: true as const } : {}),
    ...(options.agentId ? { agentId: options.agentId } : {}),
    type,
    data,
  } as SessionEvent;
}

const context = { cwd: "/work/a", gitRoot: "/work/a", branch: "main" };
const start = (extra: Partial<EventData<"session.start">> = {}) =>
  ev(
    "session.start",
    { sessionId: "s", version: 1, producer: "agent", copilotVersion: "0", startTime: "", selectedModel: "m1", mode: "interactive", context, ...extra },
    { at: 0 },
  );
const summary = { tools: ["--allow-all-tools"], paths: [], urls: [], broadRules: [] };
const todo = (id: string, extra: { agentId?: string; status?: "pending" | "done" } = {}) => ({
  id,
  title: id,
  description: "",
  status: extra.status ?? "pending",
  dependsOn: [],
  ...(extra.agentId ? { agentId: extra.agentId } : {}),
});
const fold = (...events: SessionEvent[]) => foldEvents(events);

describe("reduceSessionState: event sequences → state", () => {
  const rows: { name: string; events: () => SessionEvent[]; expect: (state: SessionState) => void }[] = [
    {
      name: "session.start sets the model, the directory, the mode and the name",
      events: () => [start({ name: "fixing" })],
      expect: (state) => expect(state).toMatchObject({ model: "m1", cwd: "/work/a", context, mode: "interactive", name: "fixing" }),
    },
    {
      name: "modes and autopilot's objective follow their events",
      events: () => [
        start(),
        ev("session.mode_changed", { previousMode: "interactive", newMode: "autopilot" }),
        ev("session.objective_changed", { objective: "ship it" }),
        ev("session.mode_changed", { previousMode: "autopilot", newMode: "plan" }),
        ev("session.objective_changed", {}),
      ],
      expect: (state) => expect(state).toMatchObject({ mode: "plan", objective: undefined }),
    },
    {
      name: "session limits: a session started with them has not told the model yet",
      events: () => [start({ sessionLimits: { maxAiCredits: 30 } })],
      expect: (state) => expect(state).toMatchObject({ sessionLimits: { maxAiCredits: 30 }, sessionLimitsTold: false }),
    },
    {
      name: "session limits: a user message that carried their status has told them; a change must be told again",
      events: () => [
        start({ sessionLimits: { maxAiCredits: 30 } }),
        ev("user.message", { content: "go", limitsStatus: "<session_limits_status>…</session_limits_status>" }),
        ev("session.session_limits_changed", { sessionLimits: { maxAiCredits: 60 } }),
      ],
      expect: (state) => expect(state).toMatchObject({ sessionLimits: { maxAiCredits: 60 }, sessionLimitsTold: false }),
    },
    {
      name: "session limits: cleared",
      events: () => [
        start({ sessionLimits: { maxAiCredits: 30 } }),
        ev("user.message", { content: "go", limitsStatus: "<session_limits_status>…</session_limits_status>" }),
        ev("session.session_limits_changed", { sessionLimits: null }),
      ],
      expect: (state) => expect(state.sessionLimits).toBeNull(),
    },
    {
      name: "the model: a resume's model, then /model (with its reasoning effort)",
      events: () => [
        start(),
        ev("session.resume", { resumeTime: "", eventCount: 1, selectedModel: "m2", context: { cwd: "/work/b" } }),
        ev("session.model_change", { previousModel: "m2", newModel: "m3", reasoningEffort: "high" }),
      ],
      expect: (state) => expect(state).toMatchObject({ model: "m3", reasoningEffort: "high", cwd: "/work/b" }),
    },
    {
      name: "a switch that names no reasoning effort runs with none",
      events: () => [start({ reasoningEffort: "low" }), ev("session.model_change", { previousModel: "m1", newModel: "m2", previousReasoningEffort: "low" })],
      expect: (state) => expect(state.reasoningEffort).toBeUndefined(),
    },
    {
      name: "/cwd and /rename",
      events: () => [start(), ev("session.context_changed", { cwd: "/work/c", branch: "dev" }), ev("session.title_changed", { title: "renamed" })],
      expect: (state) => expect(state).toMatchObject({ cwd: "/work/c", context: { cwd: "/work/c", branch: "dev" }, name: "renamed" }),
    },
    {
      name: "the selected agent is the main agent's; a subagent's own selection is not the session's",
      events: () => [
        start(),
        ev("subagent.selected", { agentName: "reviewer", agentDisplayName: "Reviewer", tools: ["view"] }),
        ev("subagent.deselected", {}, { agentId: "child-1" }),
      ],
      expect: (state) => expect(state.selectedAgent).toEqual({ name: "reviewer", displayName: "Reviewer", tools: ["view"] }),
    },
    {
      name: "/allow-all and /add-dir: the summary and the directories",
      events: () => [
        start(),
        ev("session.permissions_changed", { mode: "manual", summary: { ...summary, tools: [] }, directories: ["/work/a", "/extra"] }),
        ev("session.permissions_changed", { previousMode: "manual", mode: "allow-all", summary }),
      ],
      expect: (state) => expect(state.permissions).toEqual({ allowAll: true, summary, directories: ["/work/a", "/extra"] }),
    },
    {
      name: "turns count every agent's; the conversation starts with the main agent's first message",
      events: () => [
        start(),
        ev("user.message", { content: "hi" }, { agentId: "child-1" }),
        ev("assistant.turn_start", { turnId: "1" }),
        ev("assistant.turn_start", { turnId: "2" }, { agentId: "child-1" }),
      ],
      expect: (state) => expect(state).toMatchObject({ turns: 2, hasConversation: false }),
    },
    {
      name: "busy from a prompt's first event to session.idle",
      events: () => [start(), ev("user.message", { content: "hi" })],
      expect: (state) => expect(state).toMatchObject({ busy: true, hasConversation: true }),
    },
    {
      name: "idle ends it, and says which shells run",
      events: () => [
        start(),
        ev("user.message", { content: "hi" }),
        ev("session.idle", { backgroundTasks: { agents: [], shells: [{ shellId: "1", description: "server" }] } }),
      ],
      expect: (state) => expect(state).toMatchObject({ busy: false, shells: [{ shellId: "1", description: "server" }] }),
    },
    {
      name: "a !command and a /compact keep it busy; a compaction inside a turn changes nothing",
      events: () => [
        start(),
        ev("tool.user_requested", { toolCallId: "u1", toolName: "bash" }),
        ev("session.idle", {}),
        ev("session.compaction_start", { trigger: "manual" }),
      ],
      expect: (state) => expect(state.busy).toBe(true),
    },
    {
      name: "/compact's end ends it",
      events: () => [start(), ev("session.compaction_start", { trigger: "manual" }), ev("session.compaction_complete", { success: true, trigger: "manual" })],
      expect: (state) => expect(state.busy).toBe(false),
    },
    {
      name: "the queue is the main agent's (a subagent's own queue is not)",
      events: () => [
        start(),
        ev("pending_messages.modified", { items: [{ id: "q1", prompt: "/review" }], paused: true }),
        ev("pending_messages.modified", { items: [] }, { agentId: "child-1" }),
      ],
      expect: (state) => expect(state.queue).toEqual({ items: [{ id: "q1", prompt: "/review" }], paused: true }),
    },
    {
      name: "busy while a prompt waits for MCP servers, until its run ends",
      events: () => [start(), ev("session.mcp_wait_started", {})],
      expect: (state) => expect(state.busy).toBe(true),
    },
    {
      name: "the background shells change with session.background_tasks_changed",
      events: () => [start(), ev("session.background_tasks_changed", { shells: [{ shellId: "7", description: "watch" }] })],
      expect: (state) => expect(state.shells).toEqual([{ shellId: "7", description: "watch" }]),
    },
    {
      name: "MCP servers: loaded, then one connects and one fails",
      events: () => [
        start(),
        ev("session.mcp_servers_loaded", {
          servers: [
            { name: "a", status: "pending", source: "user", transport: "stdio" },
            { name: "b", status: "pending", source: "repo", transport: "http" },
          ],
        }),
        ev("session.mcp_server_status_changed", { serverName: "a", status: "connected" }),
        ev("session.mcp_server_status_changed", { serverName: "b", status: "failed", error: "exit 1" }),
      ],
      expect: (state) =>
        expect(state.mcpServers).toEqual([
          { name: "a", status: "connected", source: "user", transport: "stdio" },
          { name: "b", status: "failed", error: "exit 1", source: "repo", transport: "http" },
        ]),
    },
    {
      name: "todos: the list the event carries; a todo follows the background agent started for it (fleet convention)",
      events: () => [
        start(),
        ev("session.todos_changed", { todos: [todo("part-a"), todo("part-b", { agentId: "chosen-1" })] }),
        ev("subagent.started", {
          toolCallId: "t1",
          agentId: "part-a-1",
          agentName: "general-purpose",
          agentDisplayName: "General",
          agentDescription: "part a",
          executionMode: "background",
        }),
      ],
      expect: (state) => {
        expect(state.todos).toEqual([todo("part-a", { agentId: "part-a-1" }), todo("part-b", { agentId: "chosen-1" })]);
        expect(state.todosAsWritten).toEqual([todo("part-a"), todo("part-b", { agentId: "chosen-1" })]);
      },
    },
  ];

  for (const row of rows) it(row.name, () => row.expect(fold(...row.events())));
});

const started = (toolCallId: string, extra: Partial<EventData<"subagent.started">> = {}, at = 1) =>
  ev(
    "subagent.started",
    { toolCallId, agentName: "explore", agentDisplayName: "Explore", agentDescription: "look", executionMode: "background", ...extra },
    { at },
  );

describe("reduceSessionState: subagents", () => {
  it("a background agent: running, idle after its answer (its task completed), then completed when it stops waiting", () => {
    const events = [
      start(),
      started("t1", { agentId: "explore-1" }),
      ev("session.background_tasks_changed", { agents: [{ toolCallId: "t1", agentId: "explore-1", status: "running" }] }, { at: 2 }),
      ev("user.message", { content: "Find it.", parentToolCallId: "t1" }, { agentId: "explore-1", at: 3 }),
      ev("tool.execution_start", { toolCallId: "c1", toolName: "grep", toolTitle: "grep foo", parentToolCallId: "t1" }, { agentId: "explore-1", at: 4 }),
      ev("assistant.message", { messageId: "m", content: "Found it.", parentToolCallId: "t1" }, { agentId: "explore-1", at: 5 }),
      ev("session.background_tasks_changed", { agents: [{ toolCallId: "t1", agentId: "explore-1", status: "idle" }] }, { at: 6 }),
      ev("subagent.completed", { toolCallId: "t1", agentName: "explore", agentDisplayName: "Explore" }, { at: 6 }),
    ];
    const idle = fold(...events);
    expect(idle.agents).toEqual([
      {
        toolCallId: "t1",
        id: "explore-1",
        type: "explore",
        name: "Explore",
        description: "look",
        status: "idle",
        background: true,
        startedAt: clock + 1000,
        endedAt: clock + 6000,
        answers: ["Found it."],
        transcript: [
          { role: "user", text: "Find it." },
          { role: "tool", text: "grep foo" },
          { role: "assistant", text: "Found it." },
        ],
      },
    ]);
    const done = reduceSessionState(idle, ev("session.background_tasks_changed", { agents: [] }, { at: 9 }));
    expect(done.agents[0]).toMatchObject({ status: "completed", endedAt: clock + 6000 });
  });

  it("failed and cancelled (the engine's 'cancelled: why'), with the reason", () => {
    const state = fold(
      start(),
      started("t1"),
      started("t2"),
      ev("subagent.failed", { toolCallId: "t1", agentName: "explore", agentDisplayName: "Explore", error: "the model failed" }),
      ev("subagent.failed", { toolCallId: "t2", agentName: "explore", agentDisplayName: "Explore", error: "cancelled: by the user" }),
    );
    expect(state.agents.map(({ status, error }) => ({ status, error }))).toEqual([
      { status: "failed", error: "the model failed" },
      { status: "cancelled", error: "by the user" },
    ]);
  });

  it("a sync agent moved to the background is one agent; an older log names an agent by its first own event", () => {
    const state = fold(
      start(),
      started("t1", { executionMode: "sync" }),
      ev("system.message", { content: "You explore.", role: "system", parentToolCallId: "t1" } as EventData<"system.message">, { agentId: "mover-1" }),
      started("t1", { executionMode: "background" }, 3),
    );
    expect(state.agents).toHaveLength(1);
    expect(state.agents[0]).toMatchObject({ id: "mover-1", background: true, status: "running", startedAt: clock + 1000 });
  });

  it("an agent that a subagent started remembers its parent; its transcript keeps the newest 500 lines", () => {
    const lines = Array.from({ length: 502 }, (_, index) => ev("user.message", { content: `line ${index}` }, { agentId: "deep-1" }));
    const state = fold(
      start(),
      ev(
        "subagent.started",
        { toolCallId: "t9", agentId: "deep-1", agentName: "explore", agentDisplayName: "Explore", agentDescription: "d" },
        { agentId: "outer-1" },
      ),
      ...lines,
    );
    expect(state.agents[0]?.parentAgentId).toBe("outer-1");
    expect(state.agents[0]?.transcript).toHaveLength(500);
    expect(state.agents[0]?.transcript[0]?.text).toBe("line 2");
  });
});

describe("reduceSessionState: usage", () => {
  const metric = (count: number, inputTokens: number, outputTokens: number) => ({ requests: { count, cost: 0 }, usage: { inputTokens, outputTokens } });
  const shutdown = (at: number, metrics: Record<string, ReturnType<typeof metric>>, lines: number, files: string[]) =>
    ev(
      "session.shutdown",
      {
        shutdownType: "routine",
        totalPremiumRequests: 0,
        totalApiDurationMs: 500,
        sessionStartTime: clock,
        codeChanges: { linesAdded: lines, linesRemoved: 0, filesModified: files },
        modelMetrics: metrics,
        completedCalls: 2,
      },
      { at },
    );

  it("this process's totals come from its checkpoints; its shutdown is its record and joins the earlier ones", () => {
    const live = fold(
      start(),
      ev("session.usage_checkpoint", { totalNanoAiu: 0, requests: 3, completedCalls: 2, totalApiDurationMs: 500, modelMetrics: { m1: metric(3, 100, 10) } }),
      started("t1"),
    );
    expect(live.usage.current).toMatchObject({
      requests: 3,
      completedCalls: 2,
      apiDurationMs: 500,
      modelMetrics: { m1: metric(3, 100, 10) },
      backgroundAgents: 1,
    });
    expect(live.usage.earlier).toBeUndefined();
    const ended = reduceSessionState(live, shutdown(60, { m1: metric(3, 100, 10) }, 4, ["/a"]));
    expect(ended.usage.currentRecorded).toBe(true);
    expect(ended.usage.earlier).toEqual({
      processes: 1,
      requests: 3,
      apiDurationMs: 500,
      activeMs: 60_000,
      modelMetrics: { m1: metric(3, 100, 10) },
      linesAdded: 4,
      linesRemoved: 0,
      filesModified: ["/a"],
    });
    expect(ended.usage.current).toMatchObject({ requests: 3, completedCalls: 2, backgroundAgents: 1 });
  });

  it("a resumed session adds the earlier processes' records; a process that crashed left none and is left out", () => {
    const state = fold(
      start(),
      shutdown(10, { m1: metric(2, 50, 5) }, 1, ["/a"]),
      ev("session.resume", { resumeTime: "", eventCount: 3 }, { at: 20 }),
      ev("session.usage_checkpoint", { totalNanoAiu: 0, requests: 9, modelMetrics: { m1: metric(9, 900, 90) } }),
      ev("session.resume", { resumeTime: "", eventCount: 5 }, { at: 40 }),
      shutdown(50, { m2: metric(1, 10, 1) }, 2, ["/a", "/b"]),
    );
    expect(state.usage.earlier).toMatchObject({
      processes: 2,
      requests: 3,
      modelMetrics: { m1: metric(2, 50, 5), m2: metric(1, 10, 1) },
      linesAdded: 3,
      filesModified: ["/a", "/b"],
    });
  });

  it("a client joining the open session (a session.resume marked alreadyInUse) starts no new process and changes nothing", () => {
    for (const alreadyInUse of [true, false]) {
      const before = fold(start({ reasoningEffort: "low" }), ev("session.usage_checkpoint", { totalNanoAiu: 0, requests: 4 }));
      const joined = reduceSessionState(
        before,
        ev("session.resume", { resumeTime: "", eventCount: 2, selectedModel: "other", sessionWasActive: false, alreadyInUse, continuePendingWork: true }),
      );
      expect(joined).toBe(before);
      expect(joined.usage.current.requests).toBe(4);
    }
  });

  it("a new process starts its own totals at zero (beginProcess, as a silent resume has no event)", () => {
    const before = fold(start(), ev("session.usage_checkpoint", { totalNanoAiu: 0, requests: 4 }), ev("user.message", { content: "x" }));
    const opened = beginProcess(before, { model: "m9", context: { cwd: "/elsewhere" }, permissions: { allowAll: true, summary }, startTime: clock + 99 });
    expect(opened.usage.current).toMatchObject({ requests: 0, startTime: clock + 99 });
    expect(opened).toMatchObject({ model: "m9", cwd: "/elsewhere", busy: false, permissions: { allowAll: true }, hasConversation: true });
  });
});

describe("reduceSessionState on the hot path", () => {
  const base = fold(start(), ev("user.message", { content: "hi" }), started("t1", { agentId: "explore-1" }));

  it("returns the same state for a streamed delta and for an event that changes nothing", () => {
    expect(reduceSessionState(base, ev("assistant.message_delta", { messageId: "m", deltaContent: "x" }))).toBe(base);
    expect(reduceSessionState(base, ev("assistant.message_delta", { messageId: "m", deltaContent: "x" }, { agentId: "explore-1" }))).toBe(base);
    expect(reduceSessionState(base, ev("tool.execution_partial_result", { toolCallId: "c", partialOutput: "…" }))).toBe(base);
    expect(reduceSessionState(base, ev("hook.start", { hookInvocationId: "h", hookType: "preToolUse" }))).toBe(base);
  });

  it("copies only the slice an event touches", () => {
    const next = reduceSessionState(base, ev("session.mode_changed", { previousMode: "interactive", newMode: "plan" }));
    expect(next).not.toBe(base);
    expect(next.agents).toBe(base.agents);
    expect(next.usage).toBe(base.usage);
    expect(next.todos).toBe(base.todos);
    const agentSaid = reduceSessionState(base, ev("assistant.message", { messageId: "m", content: "ok" }, { agentId: "explore-1" }));
    expect(agentSaid.agents).not.toBe(base.agents);
    expect(agentSaid.usage).toBe(base.usage);
    expect(agentSaid.queue).toBe(base.queue);
  });

  it("makes no new state for 10,000 deltas and messages once the conversation has begun", () => {
    const events = Array.from({ length: 10_000 }, (_, index) =>
      index % 10 === 0
        ? ev("assistant.message", { messageId: `m${index}`, content: "done" })
        : ev("assistant.message_delta", { messageId: `m${index}`, deltaContent: "x" }),
    );
    let state = initialSessionState();
    let changes = 0;
    for (const event of events) {
      const next = reduceSessionState(state, event);
      if (next !== state) changes++;
      state = next;
    }
    expect(state.hasConversation).toBe(true);
    expect(changes).toBe(1);
  });
});

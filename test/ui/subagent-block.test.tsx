/** A sync subagent shows under its task call: the agent's name, the call's description, its live intent and count. */
import { afterEach, describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/protocol/events/index.js";
import { RunningTools } from "../../src/ui/components/running-tools.js";
import { reduceTranscript } from "../../src/ui/state/reduce-transcript.js";
import { initialTranscript, type TranscriptState } from "../../src/ui/state/transcript-types.js";
import { plainTheme } from "../../src/ui/theme.js";
import { renderTui, type TuiHarness } from "../support/render-tui.js";

let tui: TuiHarness | undefined;
afterEach(() => tui?.unmount());

let counter = 0;
const event = (type: string, data: Record<string, unknown>, agentId?: string): SessionEvent =>
  ({ id: `e${++counter}`, timestamp: new Date().toISOString(), parentId: null, ...(agentId ? { agentId } : {}), type, data }) as unknown as SessionEvent;

function fold(events: SessionEvent[]): TranscriptState {
  return events.reduce((state, next) => reduceTranscript(state, next, 1000), initialTranscript({ mode: "interactive", model: "m" }));
}

describe("a sync subagent under its task call", () => {
  it("names the agent, follows its latest tool as intent, counts its calls, and hides the inner calls", async () => {
    const state = fold([
      event("tool.execution_start", { toolCallId: "call_task", toolName: "task", toolTitle: "find the auth code" }),
      event("subagent.started", {
        toolCallId: "call_task",
        agentName: "explore",
        agentDisplayName: "Explore",
        agentDescription: "find the auth code",
        executionMode: "sync",
      }),
      event("tool.execution_start", { toolCallId: "c1", toolName: "grep", toolTitle: "grep login", parentToolCallId: "call_task" }, "explore-1"),
      event("tool.execution_complete", { toolCallId: "c1", success: true, result: { content: "3 matches" }, parentToolCallId: "call_task" }, "explore-1"),
      event("tool.execution_start", { toolCallId: "c2", toolName: "view", toolTitle: "src/auth.ts", parentToolCallId: "call_task" }, "explore-1"),
    ]);
    expect(state.running).toHaveLength(1);
    expect(state.items).toHaveLength(0);
    tui = renderTui(<RunningTools tools={state.running} theme={plainTheme} width={80} now={5000} />);
    await tui.flush();
    const frame = tui.frame();
    expect(frame).toContain("Explore · find the auth code (4s) · 2 tool calls · turns 0 · 0 tokens");
    expect(frame).toContain("↳ src/auth.ts");
    expect(frame).not.toContain("grep login");
  });

  it("shows the agent's model calls, tokens and time against its budget", async () => {
    const state = fold([
      event("tool.execution_start", { toolCallId: "call_task", toolName: "task", toolTitle: "find it" }),
      event("subagent.started", {
        toolCallId: "call_task",
        agentName: "explore",
        agentDisplayName: "Explore",
        agentDescription: "find it",
        executionMode: "sync",
        budget: { maxTurns: 50, maxTokens: 100_000, maxDurationMs: 300_000 },
      }),
      event("assistant.turn_start", { turnId: "2", parentToolCallId: "call_task" }, "explore-1"),
      event("assistant.usage", { model: "m", inputTokens: 11_000, outputTokens: 1_400, parentToolCallId: "call_task" }, "explore-1"),
      event("assistant.message_delta", { messageId: "m1", deltaContent: "thinking", parentToolCallId: "call_task" }, "explore-1"),
      event("assistant.turn_start", { turnId: "3", parentToolCallId: "call_task" }, "explore-1"),
    ]);
    tui = renderTui(<RunningTools tools={state.running} theme={plainTheme} width={120} now={66_000} />);
    await tui.flush();
    expect(tui.frame()).toContain("Explore · find it (1m 05s) · 0 tool calls · turns 2/50 · 12k/100k tokens · 1m 05s/5m 00s");
  });

  it("a sync agent moved to the background keeps its start and its use in the background panel", () => {
    const started = { toolCallId: "call_task", agentName: "explore", agentDisplayName: "Explore", agentDescription: "find it" };
    const state = fold([
      event("tool.execution_start", { toolCallId: "call_task", toolName: "task", toolTitle: "find it" }),
      event("subagent.started", { ...started, executionMode: "sync", budget: { maxTurns: 5 } }),
      event("assistant.turn_start", { turnId: "2", parentToolCallId: "call_task" }, "explore-1"),
      event("subagent.started", { ...started, executionMode: "background", budget: { maxTurns: 5 } }),
      event("tool.execution_complete", { toolCallId: "call_task", success: true, result: { content: "moved to the background" } }),
      event("assistant.turn_start", { turnId: "4", parentToolCallId: "call_task" }, "explore-1"),
    ]);
    expect(state.running).toEqual([]);
    expect(state.background).toEqual([
      {
        id: "call_task",
        // Named by its id (its own events carry it), as /tasks names it.
        name: "explore-1",
        type: "explore",
        status: "running",
        startedAt: 1000,
        intent: "find it",
        use: { turns: 2, tokens: 0, budget: { maxTurns: 5 } },
      },
    ]);
  });
});

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
    expect(frame).toContain("Explore · find the auth code (4s) · 2 tool calls");
    expect(frame).toContain("↳ src/auth.ts");
    expect(frame).not.toContain("grep login");
  });
});

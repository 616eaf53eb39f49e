/** The transcript store's batching: one state change per frame, and nothing at all for events that show nothing. */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { SessionEvent } from "../../src/protocol/events/index.js";
import { PAINTS_PER_SECOND, TranscriptStore } from "../../src/ui/state/transcript-store.js";
import { initialTranscript } from "../../src/ui/state/transcript-types.js";

let counter = 0;
const event = (type: string, data: Record<string, unknown>, agentId?: string): SessionEvent =>
  ({ id: `e${++counter}`, timestamp: new Date(0).toISOString(), parentId: null, type, data, ...(agentId ? { agentId } : {}) }) as unknown as SessionEvent;

const started = event("subagent.started", {
  toolCallId: "call_1",
  agentName: "explore",
  agentDisplayName: "Explore",
  agentDescription: "looks around",
  executionMode: "background",
});

afterEach(() => {
  vi.useRealTimers();
});

describe("the transcript store", () => {
  it("applies a frame's events in one state change", () => {
    vi.useFakeTimers();
    const store = new TranscriptStore(initialTranscript({ mode: "interactive", model: "m" }));
    let changes = 0;
    store.subscribe(() => changes++);
    store.push(event("assistant.message_delta", { messageId: "m1", deltaContent: "Hello " }));
    store.push(event("assistant.message_delta", { messageId: "m1", deltaContent: "world" }));
    expect(changes).toBe(0);
    // One state change a paint (Ink paints PAINTS_PER_SECOND frames a second), not one per event.
    vi.advanceTimersByTime(1000 / PAINTS_PER_SECOND - 5);
    expect(changes).toBe(0);
    vi.advanceTimersByTime(5);
    expect(changes).toBe(1);
    expect(store.getState().live?.text).toBe("Hello world");
  });

  it("neither queues nor wakes up for a subagent's streamed text, which shows nothing", () => {
    vi.useFakeTimers();
    const store = new TranscriptStore(initialTranscript({ mode: "interactive", model: "m" }));
    store.push(started);
    store.flush();
    const before = store.getState();
    let changes = 0;
    store.subscribe(() => changes++);
    for (let index = 0; index < 100; index++) {
      store.push(event("assistant.message_delta", { messageId: "a1", deltaContent: "tok ", parentToolCallId: "call_1" }, "explore-1"));
    }
    // No frame timer for them: ten agents streaming cost the view nothing between the events that show.
    expect(vi.getTimerCount()).toBe(0);
    store.flush();
    expect(changes).toBe(0);
    expect(store.getState()).toBe(before);
  });

  it("still shows what a subagent's activity changes: its model calls, tokens and latest tool", () => {
    vi.useFakeTimers();
    const store = new TranscriptStore(initialTranscript({ mode: "interactive", model: "m" }));
    store.push(started);
    store.push(event("assistant.turn_start", { turnId: "1", parentToolCallId: "call_1" }, "explore-1"));
    store.push(event("assistant.usage", { model: "m", inputTokens: 10, outputTokens: 5, parentToolCallId: "call_1" }, "explore-1"));
    store.push(
      event("tool.execution_start", { toolCallId: "t1", toolName: "grep", arguments: { pattern: "needle" }, parentToolCallId: "call_1" }, "explore-1"),
    );
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(1000 / PAINTS_PER_SECOND);
    const task = store.getState().background[0];
    expect(task?.use).toMatchObject({ turns: 1, tokens: 15 });
    expect(task?.intent).toBe("needle");
  });
});

/**
 * The server's delta batching (src/server/delta-batcher.ts): deltas of one stream that arrive within one turn of the
 * event loop reach the client as one (the text joined, the last one's id and the first one's parentId); another
 * stream's delta, or any other event, sends what waits first, so the order holds.
 */
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/protocol/events/index.js";
import { DeltaBatcher } from "../../src/server/delta-batcher.js";

let ids = 0;
function delta(
  text: string,
  fields: { messageId?: string; agentId?: string; parentToolCallId?: string; type?: "assistant.message_delta" | "assistant.reasoning_delta" } = {},
): SessionEvent {
  const id = `e${++ids}`;
  const { type = "assistant.message_delta", messageId = "m1", agentId, parentToolCallId } = fields;
  const data =
    type === "assistant.message_delta"
      ? { messageId, deltaContent: text, ...(parentToolCallId ? { parentToolCallId } : {}) }
      : { reasoningId: messageId, deltaContent: text };
  return { id, parentId: `p-${id}`, timestamp: "2026-01-01T00:00:00.000Z", ephemeral: true, type, data, ...(agentId ? { agentId } : {}) } as SessionEvent;
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const texts = (events: SessionEvent[]) => events.map((event) => (event.data as { deltaContent?: string }).deltaContent ?? event.type);

describe("the server's delta batching", () => {
  it("joins one stream's deltas of a turn into one: text in order, the last's id, the first's parentId", async () => {
    const sent: SessionEvent[] = [];
    const batcher = new DeltaBatcher((event) => sent.push(event));
    const parts = [delta("Hel"), delta("lo"), delta(", world")];
    for (const part of parts) batcher.push(part);
    expect(sent).toEqual([]);
    await turn();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      id: parts[2]?.id,
      parentId: parts[0]?.parentId,
      type: "assistant.message_delta",
      data: { messageId: "m1", deltaContent: "Hello, world" },
    });
    batcher.push(delta("again"));
    await turn();
    expect(texts(sent)).toEqual(["Hello, world", "again"]);
  });

  it("sends a lone delta as it came", async () => {
    const sent: SessionEvent[] = [];
    const batcher = new DeltaBatcher((event) => sent.push(event));
    const only = delta("one");
    batcher.push(only);
    await turn();
    expect(sent).toEqual([only]);
  });

  it.each([
    ["another message", { messageId: "m2" }],
    ["a subagent's", { agentId: "a1" }],
    ["a tool call's", { parentToolCallId: "t1" }],
    ["reasoning", { type: "assistant.reasoning_delta" as const }],
  ])("keeps %s deltas apart, in order", async (_name, fields) => {
    const sent: SessionEvent[] = [];
    const batcher = new DeltaBatcher((event) => sent.push(event));
    for (const part of [delta("a"), delta("b"), delta("c", fields), delta("d", fields), delta("e")]) batcher.push(part);
    await turn();
    expect(texts(sent)).toEqual(["ab", "cd", "e"]);
  });

  it("sends what waits before any other event", () => {
    const sent: SessionEvent[] = [];
    const batcher = new DeltaBatcher((event) => sent.push(event));
    batcher.push(delta("a"));
    batcher.push(delta("b"));
    batcher.push({ ...delta(""), type: "assistant.message", data: { messageId: "m1", content: "ab" } } as SessionEvent);
    expect(texts(sent)).toEqual(["ab", "assistant.message"]);
  });
});

/** The conversation's fold of compaction: the same replacement live and on resume; failures change nothing. */
import { describe, expect, it } from "vitest";
import { Conversation } from "../../../src/core/conversation.js";
import type { SessionEvent } from "../../../src/protocol/events/index.js";
import { event, fold } from "../../support/fold-events.js";

function exchange(): SessionEvent[] {
  return [
    event("system.message", { content: "SYSTEM", role: "system" }),
    event("user.message", { content: "first question" }),
    event("assistant.message", {
      messageId: "m1",
      content: "let me look",
      toolRequests: [{ toolCallId: "c1", name: "view", arguments: { path: "a" }, type: "function" }],
    }),
    event("tool.execution_complete", { toolCallId: "c1", success: true, result: { content: "file a" } }),
    event("assistant.message", { messageId: "m2", content: "first answer" }),
    event("user.message", { content: "second question" }),
  ];
}

describe("folding session.compaction_complete", () => {
  it("replaces the first messagesRemoved messages with the summary and keeps the rest", () => {
    const compacted = event("session.compaction_complete", { success: true, summaryContent: "<overview>asked twice</overview>", messagesRemoved: 4 });
    const conversation = fold([...exchange(), compacted, event("assistant.message", { messageId: "m3", content: "second answer" })]);
    const messages = conversation.messages();
    expect(messages.map((message) => message.role)).toEqual(["system", "user", "user", "assistant"]);
    expect(messages[1]?.content).toContain("<conversation_summary>");
    expect(messages[1]?.content).toContain("asked twice");
    expect(messages[2]?.content).toBe("second question");
    expect(JSON.stringify(messages)).not.toContain("first question");
    expect(conversation.size).toBe(messages.reduce((sum, message) => sum + message.content.length, 0));
  });

  it("gives a resumed conversation exactly the live one's messages", () => {
    const events = [...exchange(), event("session.compaction_complete", { success: true, summaryContent: "S", messagesRemoved: 2 })];
    const live = new Conversation();
    for (const item of events) live.apply(item);
    const resumed = fold(JSON.parse(JSON.stringify(events)) as SessionEvent[]);
    expect(resumed.messages()).toEqual(live.messages());
    // Two removed: the summary, then the tool result's pair is not split (the fold trusts the count it was given).
    expect(resumed.messages()[1]?.content).toContain("S");
  });

  it("changes nothing for a failed compaction", () => {
    const before = fold(exchange()).messages();
    const after = fold([...exchange(), event("session.compaction_complete", { success: false, error: "boom", messagesRemoved: 4 })]).messages();
    expect(after).toEqual(before);
  });

  it("folds only its own agent's compaction", () => {
    const events = [...exchange(), event("session.compaction_complete", { success: true, summaryContent: "S", messagesRemoved: 4 }, "agent-1")];
    expect(fold(events).messages()).toEqual(fold(exchange()).messages());
    const child = fold(
      [
        event("user.message", { content: "child prompt" }, "agent-1"),
        event("assistant.message", { messageId: "x", content: "child answer" }, "agent-1"),
        ...events.slice(-1),
      ],
      "agent-1",
    );
    expect(child.messages().map((message) => message.role)).toEqual(["user"]);
    expect(child.messages()[0]?.content).toContain("S");
  });

  it("compacts an already compacted conversation (the old summary is among what is replaced)", () => {
    const events = [
      ...exchange(),
      event("session.compaction_complete", { success: true, summaryContent: "FIRST", messagesRemoved: 4 }),
      event("assistant.message", { messageId: "m3", content: "second answer" }),
      event("user.message", { content: "third question" }),
      event("session.compaction_complete", { success: true, summaryContent: "SECOND", messagesRemoved: 3 }),
    ];
    const messages = fold(events).messages();
    expect(messages.map((message) => message.role)).toEqual(["system", "user", "user"]);
    expect(messages[1]?.content).toContain("SECOND");
    expect(JSON.stringify(messages)).not.toContain("FIRST");
    expect(messages[2]?.content).toBe("third question");
  });
});

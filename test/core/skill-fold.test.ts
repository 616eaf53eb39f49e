/**
 * A loaded skill in the conversation: its <skill-context> message follows the tool results of the call that
 * loaded it (or comes at once for `/<skill>`), a subagent's stays its own, a resume sees the same, and a
 * compaction that summarises it away says so, so the model loads it again when it needs it (re-inject on demand).
 */
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/protocol/events/index.js";
import { event, fold } from "../support/fold-events.js";

const invoked = (name: string, agentId?: string) =>
  event("skill.invoked", { name, path: `/skills/${name}/SKILL.md`, content: `${name.toUpperCase()} STEPS`, trigger: "agent-invoked" }, agentId);
const context = (name: string) =>
  `<skill-context name="${name}">\nBase directory for this skill: /skills/${name}\n\n${name.toUpperCase()} STEPS\n\n</skill-context>`;

function loadedByTool(agentId?: string): SessionEvent[] {
  return [
    event("user.message", { content: "make a report" }, agentId),
    event(
      "assistant.message",
      {
        messageId: "m1",
        content: "",
        toolRequests: [
          { toolCallId: "c1", name: "skill", arguments: { skill: "report" }, type: "function" },
          { toolCallId: "c2", name: "view", arguments: { path: "a" }, type: "function" },
        ],
      },
      agentId,
    ),
    invoked("report", agentId),
    event("tool.execution_complete", { toolCallId: "c1", success: true, result: { content: 'Skill "report" loaded successfully.' } }, agentId),
    event("tool.execution_complete", { toolCallId: "c2", success: true, result: { content: "file a" } }, agentId),
  ];
}

describe("skill.invoked in the conversation", () => {
  it("comes after every tool result of the call that loaded it (tool messages must follow their assistant message)", () => {
    const messages = fold(loadedByTool()).messages();
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool", "user"]);
    expect(messages.at(-1)?.content).toBe(context("report"));
  });

  it("comes at once when no tool call is waiting (the user's /<skill>), before the line typed", () => {
    const messages = fold([invoked("report"), event("user.message", { content: "/report q3" })]).messages();
    expect(messages.map((message) => message.content)).toEqual([context("report"), "/report q3"]);
  });

  it("belongs to the agent that loaded it", () => {
    const events = loadedByTool("child-1");
    expect(fold(events).messages()).toEqual([]);
    expect(fold(events, "child-1").messages().at(-1)?.content).toBe(context("report"));
  });

  it("is the same on resume as live", () => {
    const events = loadedByTool();
    expect(fold(JSON.parse(JSON.stringify(events)) as SessionEvent[]).messages()).toEqual(fold(events).messages());
  });

  it("a compaction that summarises a loaded skill away says which, so the model loads it again; one that keeps it says nothing", () => {
    const after = [event("assistant.message", { messageId: "m2", content: "report done" }), event("user.message", { content: "another" })];
    const dropped = fold([...loadedByTool(), ...after, event("session.compaction_complete", { success: true, summaryContent: "S", messagesRemoved: 6 })]);
    const summary = dropped.messages()[0]?.content ?? "";
    expect(summary).toContain("S");
    expect(summary).toContain("The instructions of the skills loaded earlier (report) are no longer in this conversation; load them again with the skill tool");
    expect(JSON.stringify(dropped.messages())).not.toContain("REPORT STEPS");
    const kept = fold([...loadedByTool(), ...after, event("session.compaction_complete", { success: true, summaryContent: "S", messagesRemoved: 1 })]);
    expect(kept.messages()[0]?.content).not.toContain("no longer in this conversation");
    expect(JSON.stringify(kept.messages())).toContain("REPORT STEPS");
  });
});

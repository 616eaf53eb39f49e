/** The pure parts of the ACP face: events → updates, todos → plan, permission options, prompt blocks, MCP servers. */
import { describe, expect, it } from "vitest";
import { UpdateTranslator } from "../../src/acp/event-updates.js";
import { mcpConfigOf } from "../../src/acp/mcp-servers.js";
import { permissionOptions, permissionReply } from "../../src/acp/permission-options.js";
import { permissionOptions as offerable } from "../../src/core/permission-options.js";
import { offeredOptions } from "../../src/protocol/interactions.js";
import { planApprovalOptions, planApprovalReply } from "../../src/acp/plan-approval.js";
import { planUpdate, todosOf } from "../../src/acp/plan-updates.js";
import { promptInput } from "../../src/acp/prompt-content.js";
import type { EventData, EventType, SessionEvent } from "../../src/protocol/events/index.js";

let counter = 0;
function event<T extends EventType>(type: T, data: EventData<T>, agentId?: string): SessionEvent {
  return { id: `e${++counter}`, timestamp: new Date(0).toISOString(), parentId: null, type, data, ...(agentId ? { agentId } : {}) } as SessionEvent;
}

describe("UpdateTranslator", () => {
  it("streams deltas as chunks and does not repeat the complete message; a message without deltas is sent whole", () => {
    const translator = new UpdateTranslator({ cwd: "/work" });
    const updates = [
      event("assistant.reasoning_delta", { reasoningId: "r1", deltaContent: "hmm" }),
      event("assistant.message_delta", { messageId: "m1", deltaContent: "Hel" }),
      event("assistant.message_delta", { messageId: "m1", deltaContent: "lo" }),
      event("assistant.reasoning", { reasoningId: "r1", content: "hmm" }),
      event("assistant.message", { messageId: "m1", content: "Hello" }),
      event("assistant.message", { messageId: "m2", content: "Unstreamed" }),
    ].flatMap((item) => translator.translate(item));
    expect(updates).toEqual([
      { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: "hmm" } },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hel" } },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "lo" } },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Unstreamed" } },
    ]);
  });

  it("follows a tool call from request to result, with title, kind, locations and diff", () => {
    const translator = new UpdateTranslator({ cwd: "/work" });
    const args = { path: "src/a.ts", old_str: "one", new_str: "two" };
    const requested = translator.translate(
      event("assistant.message", { messageId: "m1", content: "", toolRequests: [{ toolCallId: "c1", name: "edit", arguments: args }] }),
    );
    expect(requested).toEqual([
      {
        sessionUpdate: "tool_call",
        toolCallId: "c1",
        title: "Edit /work/src/a.ts",
        kind: "edit",
        status: "pending",
        locations: [{ path: "/work/src/a.ts" }],
        content: [{ type: "diff", path: "/work/src/a.ts", oldText: "one", newText: "two" }],
        rawInput: args,
      },
    ]);
    expect(translator.translate(event("tool.execution_start", { toolCallId: "c1", toolName: "edit", arguments: args, toolTitle: "src/a.ts" }))).toEqual([
      { sessionUpdate: "tool_call_update", toolCallId: "c1", status: "in_progress", title: "src/a.ts" },
    ]);
    const [done] = translator.translate(event("tool.execution_complete", { toolCallId: "c1", success: true, result: { content: "File updated." } }));
    expect(done).toMatchObject({
      sessionUpdate: "tool_call_update",
      status: "completed",
      content: [
        { type: "diff", path: "/work/src/a.ts", oldText: "one", newText: "two" },
        { type: "content", content: { type: "text", text: "File updated." } },
      ],
    });
    const [failed] = translator.translate(event("tool.execution_complete", { toolCallId: "c2", success: false, error: { message: "Denied." } }));
    expect(failed).toMatchObject({ status: "failed", content: [{ type: "content", content: { type: "text", text: "Denied." } }] });
  });

  it("keeps a subagent's words out but shows its tool calls; the user's messages only when replaying", () => {
    const live = new UpdateTranslator({ cwd: "/work" });
    expect(live.translate(event("assistant.message_delta", { messageId: "s1", deltaContent: "inner" }, "sub-1"))).toEqual([]);
    expect(live.translate(event("tool.execution_start", { toolCallId: "s-c1", toolName: "view", arguments: { path: "/x" } }, "sub-1"))).toMatchObject([
      { sessionUpdate: "tool_call", status: "in_progress", kind: "read" },
    ]);
    expect(live.translate(event("user.message", { content: "hi" }))).toEqual([]);
    const replay = new UpdateTranslator({ cwd: "/work", replay: true });
    expect(replay.translate(event("user.message", { content: "hi" }))).toEqual([
      { sessionUpdate: "user_message_chunk", content: { type: "text", text: "hi" } },
    ]);
    expect(replay.translate(event("user.message", { content: "go on", isAutopilotContinuation: true }))).toEqual([]);
  });

  it("reports how full the context window is", () => {
    const translator = new UpdateTranslator({ cwd: "/work" });
    expect(translator.translate(event("session.usage_info", { tokenLimit: 128000, currentTokens: 5200, messagesLength: 4 }))).toEqual([
      { sessionUpdate: "usage_update", used: 5200, size: 128000 },
    ]);
  });

  it("reports mode changes and remembers how the answer ended", () => {
    const translator = new UpdateTranslator({ cwd: "/work" });
    expect(translator.translate(event("session.mode_changed", { previousMode: "interactive", newMode: "plan" }))).toEqual([
      { sessionUpdate: "current_mode_update", currentModeId: "plan" },
    ]);
    translator.translate(event("assistant.message", { messageId: "m", content: "", finishReason: "content_filter" }));
    expect(translator.lastFinishReason).toBe("content_filter");
  });
});

describe("plan updates", () => {
  it("maps the todo list to plan entries, whatever the store calls its statuses", () => {
    expect(
      planUpdate([
        { id: "1", title: "Read the code", status: "done" },
        { id: "2", title: "Write the fix", status: "in_progress" },
        { id: "3", title: "Test it", status: "pending" },
        { id: "4", title: "Ship it", status: "in-progress" },
      ]),
    ).toEqual({
      sessionUpdate: "plan",
      entries: [
        { content: "Read the code", priority: "medium", status: "completed" },
        { content: "Write the fix", priority: "medium", status: "in_progress" },
        { content: "Test it", priority: "medium", status: "pending" },
        { content: "Ship it", priority: "medium", status: "in_progress" },
      ],
    });
  });

  it("reads todos() (a list or a promise of one) when the session has a todo store, and nothing when it has none", async () => {
    expect(await todosOf({})).toBeUndefined();
    expect(await todosOf({ todos: () => [{ id: "1", title: "A", status: "pending" }, { bogus: true }] })).toEqual([{ id: "1", title: "A", status: "pending" }]);
    expect(await todosOf({ todos: async () => [{ id: "2", title: "B", status: "done" }] })).toEqual([{ id: "2", title: "B", status: "done" }]);
    expect(await todosOf({ todos: async () => Promise.reject(new Error("no database")) })).toBeUndefined();
  });
});

describe("permission options", () => {
  const grants = { commands: [], writes: ["/work/a"], paths: [], origins: [], tools: [] };
  it("shows the answers the broker offers, with its labels; 'for this session' is allow_always to ACP; each maps to our reply", () => {
    const offered = offerable(grants);
    expect(permissionOptions(offered).map((option) => [option.optionId, option.kind, option.name])).toEqual([
      ["allow-once", "allow_once", "Yes"],
      ["allow-session", "allow_always", "Yes, and don't ask again this session for writes to /work/a"],
      ["allow-always", "allow_always", "Yes, and always allow writes to /work/a in this directory"],
      ["reject", "reject_once", "No"],
    ]);
    expect(permissionReply({ outcome: "selected", optionId: "allow-once" }, offered)).toEqual({ kind: "approve-once" });
    expect(permissionReply({ outcome: "selected", optionId: "allow-session" }, offered)).toEqual({ kind: "approve-for-session" });
    expect(permissionReply({ outcome: "selected", optionId: "allow-always" }, offered)).toEqual({ kind: "approve-always" });
    expect(permissionReply({ outcome: "selected", optionId: "reject" }, offered)).toEqual({ kind: "deny" });
    expect(permissionReply({ outcome: "cancelled" }, offered).kind).toBe("deny");
  });

  it("offers no 'always' when the broker offers none, and refuses an option it did not offer", () => {
    const offered = offerable(undefined);
    expect(permissionOptions(offered).map((option) => option.optionId)).toEqual(["allow-once", "reject"]);
    expect(permissionReply({ outcome: "selected", optionId: "allow-always" }, offered).kind).toBe("deny");
    // A request without a list (none the broker makes) offers yes once and no.
    expect(permissionOptions(offeredOptions({})).map((option) => option.optionId)).toEqual(["allow-once", "reject"]);
  });
});

describe("prompt content", () => {
  it("joins text, attaches linked files and saved images, and puts embedded resources in as context", () => {
    const saved: string[] = [];
    const input = promptInput(
      [
        { type: "text", text: "Explain " },
        { type: "resource_link", uri: "file:///work/src/a.ts", name: "a.ts" },
        { type: "text", text: "please" },
        { type: "resource", resource: { uri: "file:///work/src/b.ts", text: "const b = 1;" } },
        { type: "image", data: Buffer.from("png").toString("base64"), mimeType: "image/png" },
      ],
      (data, mimeType) => {
        saved.push(`${mimeType}:${data.toString()}`);
        return "/session/files/image-1.png";
      },
    );
    expect(input.text).toBe('Explain please\n\n<context uri="file:///work/src/b.ts">\nconst b = 1;\n</context>');
    expect(input.attachments).toEqual([
      { type: "file", path: "/work/src/a.ts", displayName: "a.ts" },
      { type: "file", path: "/session/files/image-1.png", displayName: "image" },
    ]);
    expect(saved).toEqual(["image/png:png"]);
  });
});

describe("MCP servers from the client", () => {
  it("become one configuration document in our format", () => {
    expect(mcpConfigOf([])).toBeUndefined();
    const config = JSON.parse(
      mcpConfigOf([
        { name: "local", command: "node", args: ["server.js"], env: [{ name: "TOKEN", value: "t" }] },
        { type: "http", name: "remote", url: "http://127.0.0.1:1/mcp", headers: [{ name: "Authorization", value: "Bearer x" }] },
      ]) ?? "{}",
    );
    expect(config).toEqual({
      mcpServers: {
        local: { type: "stdio", command: "node", args: ["server.js"], env: { TOKEN: "t" }, tools: ["*"] },
        remote: { type: "http", url: "http://127.0.0.1:1/mcp", headers: { Authorization: "Bearer x" }, tools: ["*"] },
      },
    });
  });
});

describe("plan review", () => {
  it("offers each way on (the recommended first) and 'keep planning'; the choice becomes the review's reply", () => {
    expect(planApprovalOptions(["interactive", "autopilot", "exit_only"], "autopilot").map((option) => [option.optionId, option.kind])).toEqual([
      ["plan:autopilot", "allow_once"],
      ["plan:interactive", "allow_once"],
      ["plan:exit_only", "allow_once"],
      ["keep-planning", "reject_once"],
    ]);
    expect(planApprovalReply({ outcome: "selected", optionId: "plan:interactive" })).toEqual({ approved: true, selectedAction: "interactive" });
    expect(planApprovalReply({ outcome: "selected", optionId: "keep-planning" })).toEqual({ approved: false });
    expect(planApprovalReply({ outcome: "cancelled" })).toEqual({ approved: false });
  });
});

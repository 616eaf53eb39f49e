/**
 * What the Copilot SDK's own session suite asks of a session, through the real SDK and the real bin/agent.js:
 * a disconnected session is gone for its client, the client's log lines are notifications, an editor's
 * selection and GitHub references reach the model in Copilot's words, the handoff summary and the compaction
 * and event-interest methods answer, a send's request headers reach the endpoint, and the reasoning effort a
 * client chooses is recorded.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { approveAll, type CopilotSession, type SessionEvent } from "@github/copilot-sdk";
import { text } from "../support/scripted-server.js";
import { nextEvent, recordEvents, useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();

async function openSession(options: { reasoningEffort?: "high" } = {}): Promise<CopilotSession> {
  const client = sdk.world.client();
  return client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest: approveAll, ...options });
}

/** The text of the last user message the model was sent, without the date header. */
function lastUserText(): string {
  const messages = sdk.server.completionRequests.at(-1)?.body.messages as { role: string; content: unknown }[];
  const user = messages.filter((message) => message.role === "user").at(-1);
  return String(user?.content).replace(/^<current_datetime>.*?<\/current_datetime>\n\n/, "");
}

function lastUserMessage(events: SessionEvent[]): Extract<SessionEvent, { type: "user.message" }>["data"] {
  const found = events.filter((event) => event.type === "user.message").at(-1);
  if (!found || found.type !== "user.message") throw new Error("no user.message");
  return found.data;
}

describe("SDK session methods", () => {
  it("forgets a session for the client that disconnected it: its events and sends are refused", async () => {
    const session = await openSession();
    expect((await session.getEvents()).map((event) => event.type)).toContain("session.start");
    await session.disconnect();
    await expect(session.getEvents()).rejects.toThrow(/Session not found/);
    await expect(session.send({ prompt: "still there?" })).rejects.toThrow(/Session not found/);
  });

  it("records the client's log lines as notifications of their level", async () => {
    const session = await openSession();
    const events = recordEvents(session);
    await session.log("all good");
    await session.log("careful", { level: "warning" });
    await session.log("broken", { level: "error" });
    const stored = await session.getEvents();
    for (const seen of [events, stored]) {
      expect(seen.find((event) => event.type === "session.info")?.data).toEqual({ infoType: "notification", message: "all good" });
      expect(seen.find((event) => event.type === "session.warning")?.data).toEqual({ warningType: "notification", message: "careful" });
      expect(seen.find((event) => event.type === "session.error")?.data).toEqual({ errorType: "notification", message: "broken" });
    }
  });

  it("puts an editor's selection before the prompt and GitHub references after it, in Copilot's words", async () => {
    sdk.server.enqueue(text("A field."), text("An issue."), text("One file."));
    const session = await openSession();
    const file = path.join(sdk.world.cwd, "selected.cs");
    writeFileSync(file, 'class C {\n  string Value = "S";\n  int Other;\n}\n');
    const selection = { start: { line: 1, character: 2 }, end: { line: 2, character: 12 } };
    await session.sendAndWait({
      prompt: "Explain the selection.",
      attachments: [{ type: "selection", filePath: file, displayName: "selected.cs", text: 'string Value = "S";\n  int Other;', selection }],
    });
    expect(lastUserText()).toBe(
      "<ide_selection>\nThe user has the following text selected in their IDE. This may or may not be related to their request.\n" +
        'File: selected.cs (lines 2-3)\n```\nstring Value = "S";\n  int Other;\n```\n</ide_selection>\n\n\n\nExplain the selection.',
    );
    expect(lastUserMessage(await session.getEvents()).attachments).toEqual([
      { type: "selection", filePath: file, displayName: "selected.cs", text: 'string Value = "S";\n  int Other;', selection },
    ]);

    const reference = { type: "github_reference", number: 7, referenceType: "pr", state: "merged", title: "Fix it", url: "https://github.com/o/r/pull/7" };
    await session.sendAndWait({ prompt: "Summarise the reference.", attachments: [reference as never] });
    expect(lastUserText()).toBe(
      "Summarise the reference.\n\n\n\n<github_references>\n#7 - Fix it [pr] [merged] (https://github.com/o/r/pull/7)\n</github_references>",
    );
    expect(lastUserMessage(await session.getEvents()).attachments).toEqual([reference]);

    const dir = path.join(sdk.world.cwd, "docs");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "a.md"), "a");
    writeFileSync(path.join(dir, "b.md"), "b");
    await session.sendAndWait({ prompt: "What is in it?", attachments: [{ type: "directory", path: dir, displayName: "docs" }] });
    expect(lastUserText()).toBe(`What is in it?\n\n\n\n<tagged_files>\n* ${dir} (2 items)\n</tagged_files>`);
  });

  it("summarises the conversation for a handoff, and has no compaction to cancel or abort", async () => {
    sdk.server.enqueue(text("Hello there."));
    const session = await openSession();
    expect(await session.rpc.history.summarizeForHandoff()).toEqual({ summary: "" });
    expect(await session.rpc.history.abortManualCompaction()).toEqual({ aborted: false });
    await session.log("deployed to staging");
    await session.sendAndWait({ prompt: "Say hello" });
    const { summary } = await session.rpc.history.summarizeForHandoff();
    expect(summary).toBe("Note: deployed to staging\nUser: Say hello\nAssistant: Hello there.");
  });

  it("gives and takes back handles for a client's interest in an event type", async () => {
    const session = await openSession();
    const first = await session.rpc.eventLog.registerInterest({ eventType: "mcp.oauth_required" });
    const second = await session.rpc.eventLog.registerInterest({ eventType: "mcp.oauth_required" });
    expect(first.handle).not.toBe(second.handle);
    expect(await session.rpc.eventLog.releaseInterest({ handle: first.handle })).toEqual({ success: true });
    expect(await session.rpc.eventLog.releaseInterest({ handle: "never-given" })).toEqual({ success: true });
  });

  it("puts a send's request headers on that prompt's model requests only", async () => {
    sdk.server.enqueue(text("Two."), text("Four."));
    const session = await openSession();
    await session.sendAndWait({ prompt: "1+1?", requestHeaders: { "x-app-trace": "trace-1" } });
    await session.sendAndWait({ prompt: "2+2?" });
    const [first, second] = sdk.server.completionRequests;
    expect(first?.headers["x-app-trace"]).toBe("trace-1");
    expect(second?.headers["x-app-trace"]).toBeUndefined();
  });

  it("records the reasoning effort a client opens with and switches to", async () => {
    const session = await openSession({ reasoningEffort: "high" });
    const start = (await session.getEvents()).find((event) => event.type === "session.start");
    expect(start?.type === "session.start" && start.data.reasoningEffort).toBe("high");
    const change = nextEvent(session, "session.model_change");
    await session.setModel("other-model", { reasoningEffort: "low" });
    expect((await change).data).toMatchObject({ newModel: "other-model", reasoningEffort: "low" });
  });
});

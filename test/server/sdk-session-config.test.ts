/**
 * Session settings and fixed texts the model sees, through the real Copilot SDK and the real bin/agent.js:
 * sessionLimits become Copilot's <session_limits_status> message (on create, on resume, once per change),
 * every prompt passes the queue (pending_messages.modified), an interrupted command reads as Copilot's, and a
 * PDF blob reaches the model as a document (citable on Anthropic with enableCitations); an application that
 * listens for command.queued runs its queued slash commands itself, one at a time.
 */
import { describe, expect, it } from "vitest";
import { approveAll, type SessionEvent } from "@github/copilot-sdk";
import { text, toolCall } from "../support/scripted-server.js";
import { nextEvent, recordEvents, scriptedProvider, useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();

const STATUS = [
  "<session_limits_status>",
  "Remaining session limits: 30 AI credits. Later session_limits_status messages supersede earlier ones. Be frugal; avoid optional exploration and unnecessary tool calls.",
  "</session_limits_status>",
].join("\n");

/** The user messages of a request, as text. */
function userTexts(index: number): string[] {
  const messages = sdk.server.completionRequests[index]?.body.messages ?? [];
  return messages.filter((message) => message.role === "user").map((message) => String(message.content));
}

const PDF_TEXT = "%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n";
const pdfBlob = { type: "blob" as const, data: Buffer.from(PDF_TEXT, "ascii").toString("base64"), displayName: "source.pdf", mimeType: "application/pdf" };

/** The content blocks of the first request's wire body (Anthropic's or OpenAI's shape). */
function wireBlocks(): Record<string, unknown>[] {
  const body = sdk.server.completionRequests[0]?.wireBody as { messages: { content: unknown }[] };
  return body.messages.flatMap((message) => (Array.isArray(message.content) ? (message.content as Record<string, unknown>[]) : []));
}

const config = () => ({ provider: scriptedProvider(sdk.server.baseUrl), model: "scripted-model", onPermissionRequest: approveAll });

describe("SDK session configuration", () => {
  it("tells the model the session limits after the first prompt, once, in Copilot's words", async () => {
    sdk.server.enqueue(text("Noted."), text("Again."));
    const client = sdk.world.client();
    const session = await client.createSession({ ...config(), sessionLimits: { maxAiCredits: 30 } });
    await session.sendAndWait({ prompt: "Acknowledge the limits." });
    await session.sendAndWait({ prompt: "And now?" });
    const first = userTexts(0);
    expect(first.at(-1)).toBe(STATUS);
    expect(first.at(-2)).toContain("Acknowledge the limits.");
    // The history keeps it; the second prompt does not repeat it.
    expect(userTexts(1).filter((content) => content === STATUS)).toHaveLength(1);
    expect(userTexts(1).at(-1)).toContain("And now?");
    expect((await session.rpc.metadata.snapshot()).sessionLimits).toEqual({ maxAiCredits: 30 });
    await client.stop();
  });

  it("takes limits given with a resume, and says nothing of limits to a session without them", async () => {
    sdk.server.enqueue(text("Plain."), text("Limited."));
    const client = sdk.world.client();
    const created = await client.createSession(config());
    await created.sendAndWait({ prompt: "No limits yet." });
    expect(userTexts(0).some((content) => content.includes("session_limits_status"))).toBe(false);
    const resumed = await client.resumeSession(created.sessionId, { ...config(), sessionLimits: { maxAiCredits: 30 } });
    await resumed.sendAndWait({ prompt: "Now with limits." });
    expect(userTexts(1).at(-1)).toBe(STATUS);
    await client.stop();
  });

  it("announces a prompt sent to an idle session as passing the queue", async () => {
    sdk.server.enqueue(text("18"));
    const client = sdk.world.client();
    const session = await client.createSession(config());
    const events = recordEvents(session);
    await session.sendAndWait({ prompt: "What is 9+9?" });
    const types = events.map((event) => event.type);
    expect(types).toContain("pending_messages.modified");
    expect(types.indexOf("pending_messages.modified")).toBeLessThan(types.indexOf("assistant.message"));
    await client.stop();
  });

  /** Aborts the command's run once `at` is seen; the tool message the model gets with the next prompt. */
  async function toolMessageAfterAbort(command: string, at: "tool.execution_start" | "permission.requested", answer = approveAll): Promise<unknown> {
    sdk.server.enqueue(toolCall("bash", { command, description: "Command" }), text("4"));
    const client = sdk.world.client();
    const session = await client.createSession({ ...config(), onPermissionRequest: answer });
    const reached = nextEvent(session, at);
    const idle = nextEvent(session, "session.idle");
    await session.send({ prompt: `run ${command}` });
    await reached;
    await session.abort();
    await idle;
    await session.sendAndWait({ prompt: "What is 2+2?" });
    await client.stop();
    return sdk.server.completionRequests[1]?.body.messages.find((message) => message.role === "tool")?.content;
  }

  it("gives the model Copilot's words for a command the abort stopped", async () => {
    expect(await toolMessageAfterAbort("sleep 100", "tool.execution_start")).toBe("The execution of this tool, or a previous tool was interrupted.");
  });

  it("gives the model the same words for a call whose permission question the abort cut short", async () => {
    // The question stays open until the abort: the app never answers it.
    const never = () => new Promise<never>(() => undefined);
    expect(await toolMessageAfterAbort("touch never.txt", "permission.requested", never)).toBe(
      "The execution of this tool, or a previous tool was interrupted.",
    );
  });

  it("sends a PDF blob to Anthropic as a document, citable when the client enables citations", async () => {
    for (const enableCitations of [true, false]) {
      const client = sdk.world.client();
      sdk.server.enqueue(text("Summarised."));
      const before = sdk.server.completionRequests.length;
      const session = await client.createSession({
        ...config(),
        provider: { type: "anthropic", baseUrl: sdk.server.baseUrl, apiKey: "test-key" },
        enableCitations,
      });
      await session.sendAndWait({ prompt: "Summarise the PDF.", attachments: [pdfBlob] });
      const body = sdk.server.completionRequests[before]?.wireBody as { messages: { content: Record<string, unknown>[] }[] };
      const documents = body.messages.flatMap((message) => message.content.filter((block) => block.type === "document"));
      expect(documents).toHaveLength(1);
      expect(documents[0]).toMatchObject({ title: "source.pdf", source: { type: "base64", media_type: "application/pdf" } });
      expect(Buffer.from(String((documents[0]?.source as { data: string }).data), "base64").toString("ascii")).toBe(PDF_TEXT);
      expect(documents[0]?.citations).toEqual(enableCitations ? { enabled: true } : undefined);
      await client.stop();
    }
  });

  it("sends a PDF blob over chat completions as a file part", async () => {
    sdk.server.enqueue(text("Read it."));
    const client = sdk.world.client();
    const session = await client.createSession(config());
    await session.sendAndWait({ prompt: "Read the PDF.", attachments: [pdfBlob] });
    const file = wireBlocks().find((block) => block.type === "file") as { file: { filename: string; file_data: string } } | undefined;
    expect(file?.file.filename).toBe("source.pdf");
    expect(file?.file.file_data.startsWith("data:application/pdf;base64,")).toBe(true);
    await client.stop();
  });

  it("hands queued slash commands to an application that listens for command.queued, one at a time", async () => {
    const client = sdk.world.client();
    const session = await client.createSession(config());
    const interest = await session.rpc.eventLog.registerInterest({ eventType: "command.queued" });
    const handed: Extract<SessionEvent, { type: "command.queued" }>[] = [];
    session.on((event) => void (event.type === "command.queued" && handed.push(event)));
    const first = nextEvent(session, "command.queued");
    expect((await session.rpc.commands.enqueue({ command: "/deploy staging" })).queued).toBe(true);
    expect((await first).data.command).toBe("/deploy staging");
    // While the application runs it, the next waits in the queue, where it can be seen and taken out.
    await session.rpc.commands.enqueue({ command: "/deploy prod" });
    await session.rpc.commands.enqueue({ command: "/notify team" });
    const pending = await session.rpc.queue.pendingItems();
    expect(pending.items.map((item) => [item.kind, item.displayText])).toEqual([
      ["command", "/deploy prod"],
      ["command", "/notify team"],
    ]);
    expect((await session.rpc.queue.removeMostRecent()).removed).toBe(true);
    const second = nextEvent(session, "command.queued");
    expect((await session.rpc.commands.respondToQueuedCommand({ requestId: (await first).data.requestId, result: { handled: true } })).success).toBe(true);
    expect((await second).data.command).toBe("/deploy prod");
    // Answered once: the same id is no longer pending.
    expect((await session.rpc.commands.respondToQueuedCommand({ requestId: (await first).data.requestId, result: { handled: true } })).success).toBe(false);
    expect((await session.rpc.commands.respondToQueuedCommand({ requestId: (await second).data.requestId, result: { handled: false } })).success).toBe(true);
    expect(handed.map((event) => event.data.command)).toEqual(["/deploy staging", "/deploy prod"]);
    expect(sdk.server.completionRequests).toHaveLength(0);
    await session.rpc.eventLog.releaseInterest({ handle: interest.handle });
    await client.stop();
  });

  it("holds what is queued behind a command answered with stopProcessingQueue until the next prompt", async () => {
    sdk.server.enqueue(text("Done."));
    const client = sdk.world.client();
    const session = await client.createSession(config());
    await session.rpc.eventLog.registerInterest({ eventType: "command.queued" });
    const first = nextEvent(session, "command.queued");
    await session.rpc.commands.enqueue({ command: "/first" });
    await session.rpc.commands.enqueue({ command: "/second" });
    await session.rpc.commands.respondToQueuedCommand({ requestId: (await first).data.requestId, result: { handled: true, stopProcessingQueue: true } });
    expect((await session.rpc.queue.pendingItems()).items.map((item) => item.displayText)).toEqual(["/second"]);
    const second = nextEvent(session, "command.queued");
    // A new prompt goes behind it, and the queue runs again in order.
    const answered = session.sendAndWait({ prompt: "carry on" });
    expect((await second).data.command).toBe("/second");
    await session.rpc.commands.respondToQueuedCommand({ requestId: (await second).data.requestId, result: { handled: true } });
    expect((await answered)?.data.content).toBe("Done.");
    await client.stop();
  });
});

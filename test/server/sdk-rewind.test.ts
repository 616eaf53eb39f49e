/**
 * Rewind, truncate, fork and the workspace checkpoints through the real Copilot SDK and bin/agent.js, as
 * the SDK's own suite uses them (rewind.e2e, rpc_event_side_effects, rpc_session_state,
 * rpc_workspace_checkpoints): a rewind restores a created file and hides the prompt from getEvents, a
 * truncate announces session.snapshot_rewind, a fork continues from a point, errors are the suite's; the
 * workspace's diff in each mode, and a large paste kept in the session's files.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { approveAll } from "@github/copilot-sdk";
import { text, toolCall } from "../support/scripted-server.js";
import { nextEvent, useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();
const options = () => ({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest: approveAll });

/** The user and assistant texts of a session's events, in order (what the suite compares). */
function conversation(events: readonly { type: string; data: unknown }[]): string[] {
  return events.flatMap((event) =>
    event.type === "user.message" || event.type === "assistant.message" ? [`${event.type}: ${(event.data as { content: string }).content}`] : [],
  );
}

describe("SDK rewind and fork", () => {
  it("lists the prompt as a rewind point, previews the file, and restores it and the conversation", async () => {
    sdk.server.enqueue(toolCall("create", { path: "rewind-sdk.txt", file_text: "SDK rewind content" }), text("SDK_REWIND_DONE"));
    const client = sdk.world.client();
    const session = await client.createSession(options());
    expect((await session.sendAndWait({ prompt: "create it" }))?.data.content).toBe("SDK_REWIND_DONE");
    const file = path.join(sdk.world.cwd, "rewind-sdk.txt");
    expect(readFileSync(file, "utf8")).toBe("SDK rewind content");

    const listed = await session.rpc.history.listRewindPoints();
    expect(listed.fileChangeTrackingEnabled).toBe(true);
    expect(listed.points).toHaveLength(1);
    expect(listed.points[0]).toMatchObject({
      userMessage: "create it",
      canRestoreFiles: true,
      fileCount: 1,
      turnChangedFiles: true,
      isAutopilotContinuation: false,
    });
    const eventId = listed.points[0]?.eventId as string;
    const preview = await session.rpc.history.previewRewind({ eventId });
    expect(preview).toMatchObject({ available: true, fileCount: 1, files: [{ path: file, changeType: "created" }] });

    const rewound = await session.rpc.history.rewind({ eventId, mode: "conversation-and-files" });
    expect(rewound).toMatchObject({ outcome: "success", restoredFiles: [file], skippedFiles: [] });
    expect(rewound.eventsRemoved).toBeGreaterThan(0);
    expect(existsSync(file)).toBe(false);
    expect((await session.getEvents()).some((event) => event.id === eventId)).toBe(false);
    await client.stop();
  });

  it("truncates to a prompt, announcing session.snapshot_rewind, and the session goes on", async () => {
    sdk.server.enqueue(text("SNAPSHOT_REWIND_TARGET"), text("After."));
    const client = sdk.world.client();
    const session = await client.createSession(options());
    await session.sendAndWait({ prompt: "Say SNAPSHOT_REWIND_TARGET exactly." });
    const target = (await session.getEvents()).find((event) => event.type === "user.message")?.id as string;
    const announced = nextEvent(session, "session.snapshot_rewind");
    const result = await session.rpc.history.truncate({ eventId: target });
    expect(result.eventsRemoved).toBeGreaterThanOrEqual(1);
    expect((await announced).data).toMatchObject({ upToEventId: target, eventsRemoved: result.eventsRemoved });
    expect((await session.getEvents()).some((event) => event.id === target)).toBe(false);
    await session.sendAndWait({ prompt: "again" });
    expect(JSON.stringify(sdk.server.completionRequests.at(-1)?.body.messages)).not.toContain("SNAPSHOT_REWIND_TARGET");
    await expect(session.rpc.history.truncate({ eventId: "missing-event" })).rejects.toThrow(/missing-event not found/);
    const { workspace, path: folder } = await session.rpc.workspaces.getWorkspace();
    expect(workspace).toMatchObject({ id: session.sessionId, cwd: sdk.world.cwd, client_name: "agent", summary_count: 0 });
    expect(existsSync(path.join(folder as string, "events.jsonl"))).toBe(true);
    await client.stop();
  });

  it("forks a session whole or up to an event, and the fork goes on from there", async () => {
    sdk.server.enqueue(text("FORK_BOUNDARY_FIRST"), text("FORK_BOUNDARY_SECOND"), text("FORK_CHILD_BETA"));
    const client = sdk.world.client();
    const session = await client.createSession(options());
    await session.sendAndWait({ prompt: "first" });
    await session.sendAndWait({ prompt: "second" });
    const source = await session.getEvents();

    const whole = await client.rpc.sessions.fork({ sessionId: session.sessionId });
    expect(whole.sessionId).not.toBe(session.sessionId);
    const second = source.find((event) => event.type === "user.message" && event.data.content === "second")?.id as string;
    const partial = await client.rpc.sessions.fork({ sessionId: session.sessionId, toEventId: second, name: "from the first" });
    expect(partial.name).toBe("from the first");

    const forkedWhole = await client.resumeSession(whole.sessionId, options());
    expect(conversation(await forkedWhole.getEvents()).slice(0, 4)).toEqual(conversation(source));
    const forked = await client.resumeSession(partial.sessionId, options());
    const forkedEvents = await forked.getEvents();
    expect(forkedEvents.some((event) => event.id === second)).toBe(false);
    expect(forkedEvents[0]).toMatchObject({
      type: "session.start",
      data: { sessionId: partial.sessionId, forkedFrom: { sessionId: session.sessionId, upToEventId: second } },
    });
    expect((await forked.sendAndWait({ prompt: "third" }))?.data.content).toBe("FORK_CHILD_BETA");
    const sent = JSON.stringify(sdk.server.completionRequests.at(-1)?.body.messages);
    expect(sent).toContain("FORK_BOUNDARY_FIRST");
    expect(sent).not.toContain("FORK_BOUNDARY_SECOND");
    expect(conversation(await session.getEvents())).not.toContain("user.message: third");

    const bogus = randomUUID();
    await expect(client.rpc.sessions.fork({ sessionId: session.sessionId, toEventId: bogus })).rejects.toThrow(new RegExp(`event ${bogus} not found`, "i"));
    await expect(client.rpc.sessions.fork({ sessionId: "no-such-session" })).rejects.toThrow(/not found or has no persisted events/);
    await client.stop();
  });

  it("lists no checkpoints for a fresh session and reads an unknown one as null", async () => {
    const client = sdk.world.client();
    const session = await client.createSession(options());
    expect((await session.rpc.workspaces.listCheckpoints()).checkpoints).toEqual([]);
    expect((await session.rpc.workspaces.readCheckpoint({ number: 4294967294 })).content ?? "").toBe("");
    await client.stop();
  });

  it("diffs the workspace as the suite expects, and the session mode shows what the agent changed without git", async () => {
    writeFileSync(path.join(sdk.world.cwd, "kept.txt"), "one\n");
    sdk.server.enqueue(
      toolCall("create", { path: "made.txt", file_text: "made by the agent\n" }),
      toolCall("edit", { path: "kept.txt", old_str: "one", new_str: "ONE" }),
      text("DIFF_DONE"),
    );
    const client = sdk.world.client();
    const session = await client.createSession(options());
    const unstaged = await session.rpc.workspaces.diff({ mode: "unstaged" });
    expect(unstaged).toEqual({ requestedMode: "unstaged", mode: "unstaged", changes: [], isFallback: false });
    await session.sendAndWait({ prompt: "change things" });
    const ofSession = await session.rpc.workspaces.diff({ mode: "session" });
    expect(ofSession).toMatchObject({ requestedMode: "session", mode: "session", isFallback: false });
    expect(ofSession.changes.map(({ path, changeType }) => ({ path, changeType }))).toEqual([
      { path: "kept.txt", changeType: "modified" },
      { path: "made.txt", changeType: "added" },
    ]);
    expect(ofSession.changes[0]?.diff).toMatch(/-one\n\+ONE/);
    expect(await session.rpc.workspaces.diff({ mode: "branch" })).toMatchObject({ requestedMode: "branch", mode: "unstaged", isFallback: true });
    await client.stop();
  });

  it("saves a large paste and creates files in the session's files/, reads them back, and nothing outside it", async () => {
    const client = sdk.world.client();
    const session = await client.createSession(options());
    const content = "Large paste payload 🚀\n".repeat(512);
    const { saved } = await session.rpc.workspaces.saveLargePaste({ content });
    expect(saved?.sizeBytes).toBe(Buffer.byteLength(content, "utf8"));
    expect(path.basename(path.dirname(saved?.filePath as string))).toBe("files");
    expect(statSync(saved?.filePath as string).mode & 0o777).toBe(0o600);
    expect((await session.rpc.workspaces.readFile({ path: saved?.filename as string })).content).toBe(content);
    expect((await session.rpc.workspaces.listFiles()).files).toEqual([saved?.filename]);
    await expect(session.rpc.workspaces.readFile({ path: "../events.jsonl" })).rejects.toThrow(/Path escapes the workspace files directory/);
    await expect(session.rpc.workspaces.readFile({ path: "missing.txt" })).rejects.toThrow(/No such file/);

    const created = nextEvent(session, "session.workspace_file_changed");
    await session.rpc.workspaces.createFile({ path: "notes/a.md", content: "first" });
    expect((await created).data).toEqual({ path: "notes/a.md", operation: "create" });
    const updated = nextEvent(session, "session.workspace_file_changed");
    await session.rpc.workspaces.createFile({ path: "notes/a.md", content: "second" });
    expect((await updated).data).toEqual({ path: "notes/a.md", operation: "update" });
    expect((await session.rpc.workspaces.readFile({ path: "notes/a.md" })).content).toBe("second");
    await expect(session.rpc.workspaces.createFile({ path: "../workspace.yaml", content: "x" })).rejects.toThrow(/Path escapes the workspace files directory/);
    await client.stop();
  });
});

/**
 * The server-scoped methods on stored sessions (sessions.*), the session's plan (session.plan.*), the
 * headless runtime's answers for modes it does not run in, and a command line it refuses, through the real
 * Copilot SDK and the real bin/agent.js.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { approveAll, type CopilotClient, type CopilotSession } from "@github/copilot-sdk";
import { text } from "../support/scripted-server.js";
import { nextEvent, useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();

async function conversation(session: CopilotSession, prompt: string): Promise<void> {
  await session.sendAndWait({ prompt });
}

/** A session on the scripted server, with a first prompt when one is given. */
async function newSession(client: CopilotClient, prompt?: string): Promise<CopilotSession> {
  const session = await client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest: approveAll });
  if (prompt !== undefined) await conversation(session, prompt);
  return session;
}

describe("SDK server-scoped session methods", () => {
  it("lists, finds, sizes and closes stored sessions, and tells which another process holds", async () => {
    sdk.server.enqueue(text("First."), text("Second."));
    const client = sdk.world.client();
    const first = await newSession(client, "one");
    const second = await newSession(client, "two");

    await expect(client.rpc.sessions.save({ sessionId: first.sessionId })).resolves.toEqual({});
    await expect(client.rpc.sessions.save({ sessionId: "no-such-session" })).rejects.toThrow(/not found/i);
    const listed = await client.rpc.sessions.list({ filter: { cwd: sdk.world.cwd } });
    expect(listed.sessions.map((session) => session.sessionId).sort()).toEqual([first.sessionId, second.sessionId].sort());
    expect((await client.rpc.sessions.list({ filter: { cwd: "/elsewhere" } })).sessions).toEqual([]);

    expect(await client.rpc.sessions.findByPrefix({ prefix: first.sessionId.slice(0, 12) })).toEqual({ sessionId: first.sessionId });
    expect(await client.rpc.sessions.findByPrefix({ prefix: "" })).toEqual({});
    expect(await client.rpc.sessions.findByTaskId({ taskId: "task-1" })).toEqual({});
    expect(await client.rpc.sessions.getLastForContext({ context: { cwd: sdk.world.cwd } })).toEqual({ sessionId: second.sessionId });
    const { sizes } = await client.rpc.sessions.getSizes();
    expect(sizes[first.sessionId]).toBeGreaterThan(readFileSync(path.join(sdk.world.home, "session-state", first.sessionId, "events.jsonl")).length - 1);

    // This process holds both: neither is "in use" by another process, and an open one keeps its lock.
    expect((await client.rpc.sessions.checkInUse({ sessionIds: [first.sessionId, "missing"] })).inUse).toEqual([]);
    await expect(client.rpc.sessions.releaseLock({ sessionId: first.sessionId })).rejects.toThrow(/close it first/);
    await client.rpc.sessions.close({ sessionId: first.sessionId });
    await expect(first.send({ prompt: "still there?" })).rejects.toThrow(/not found/i);
    await expect(client.rpc.sessions.releaseLock({ sessionId: first.sessionId })).resolves.toEqual({});

    // Another process holds the second session now: in use, and never deleted.
    await client.stop();
    const other = sdk.world.client();
    await other.resumeSession(second.sessionId, { provider: sdk.provider(), model: "scripted-model", onPermissionRequest: approveAll });
    const third = sdk.world.client();
    await third.start();
    expect((await third.rpc.sessions.checkInUse({ sessionIds: [first.sessionId, second.sessionId] })).inUse).toEqual([second.sessionId]);
    const deleted = await third.rpc.sessions.bulkDelete({ sessionIds: [first.sessionId, second.sessionId, "missing"] });
    expect(Object.keys(deleted.freedBytes)).toEqual([first.sessionId]);
    expect(deleted.freedBytes[first.sessionId]).toBeGreaterThan(0);
    expect(existsSync(path.join(sdk.world.home, "session-state", first.sessionId))).toBe(false);
    expect(statSync(path.join(sdk.world.home, "session-state", second.sessionId)).isDirectory()).toBe(true);
  });

  it("prunes old sessions (a dry run deletes nothing), keeps named ones unless asked, and enriches metadata", async () => {
    sdk.server.enqueue(text("Kept."), text("Named."));
    const client = sdk.world.client();
    const plain = await newSession(client, "plain");
    const named = await newSession(client, "/rename keeper");
    await conversation(named, "named");
    const open = await newSession(client);
    await client.rpc.sessions.close({ sessionId: plain.sessionId });
    await client.rpc.sessions.close({ sessionId: named.sessionId });

    const dry = await client.rpc.sessions.pruneOld({ olderThanDays: 0, dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, deleted: [], candidates: [plain.sessionId] });
    expect(dry.skipped.sort()).toEqual([named.sessionId, open.sessionId].sort());
    expect(dry.freedBytes).toBeGreaterThan(0);
    expect(existsSync(path.join(sdk.world.home, "session-state", plain.sessionId))).toBe(true);
    expect((await client.rpc.sessions.pruneOld({ olderThanDays: 30 })).candidates).toEqual([]);

    const enriched = await client.rpc.sessions.enrichMetadata({
      sessions: [{ sessionId: named.sessionId, startTime: "2020-01-01T00:00:00Z", modifiedTime: "2020-01-01T00:00:00Z", isRemote: false }],
    });
    expect(enriched.sessions[0]).toMatchObject({ sessionId: named.sessionId, name: "keeper", isRemote: false, context: { cwd: sdk.world.cwd } });

    const pruned = await client.rpc.sessions.pruneOld({ olderThanDays: 0, includeNamed: true, excludeSessionIds: [plain.sessionId] });
    expect(pruned).toMatchObject({ dryRun: false, deleted: [named.sessionId], candidates: [named.sessionId] });
    expect(existsSync(path.join(sdk.world.home, "session-state", named.sessionId))).toBe(false);
    expect(existsSync(path.join(sdk.world.home, "session-state", plain.sessionId))).toBe(true);
  });

  it("opens the last session of a directory, says not_found for none, and refuses remote sessions by name", async () => {
    sdk.server.enqueue(text("Hello."));
    const client = sdk.world.client();
    await client.start();
    expect(await client.rpc.sessions.open({ kind: "resumeLast" } as never)).toEqual({ status: "not_found" });
    const session = await newSession(client, "hi");
    await client.rpc.sessions.close({ sessionId: session.sessionId });
    expect(await client.rpc.sessions.open({ kind: "resume", sessionId: "no-such-session" } as never)).toEqual({ status: "not_found" });
    // Found, it is opened with the server's own configuration (this world has no endpoint but each session's provider).
    await expect(client.rpc.sessions.open({ kind: "resumeLast", context: { cwd: sdk.world.cwd } } as never)).rejects.toThrow(/No model endpoint is configured/);
    await expect(client.rpc.sessions.connect({ sessionId: "remote-1" })).rejects.toThrow(/Remote session not found: remote-1/);
  });

  it("answers for modes it does not run in: no foreground session, no agent registry, no extension connection", async () => {
    const client = sdk.world.client();
    const session = await newSession(client);
    expect(await client.getForegroundSessionId()).toBeUndefined();
    await expect(client.setForegroundSessionId(session.sessionId)).rejects.toThrow("Not running in TUI+server mode");
    await expect(client.rpc.agentRegistry.spawn({ cwd: sdk.world.cwd } as never)).rejects.toThrow(/agentRegistry\.spawn.*not enabled/);
    await expect(session.rpc.extensions.sendAttachmentsToMessage({ attachments: [] } as never)).rejects.toThrow(/extension connection/);
  });
});

describe("SDK session plan", () => {
  it("reads, writes and deletes plan.md in the session folder, each change told by session.plan_changed", async () => {
    const client = sdk.world.client();
    const session = await newSession(client);
    const file = path.join(sdk.world.home, "session-state", session.sessionId, "plan.md");
    expect(await session.rpc.plan.read()).toEqual({ exists: false, content: null, path: file });

    const created = nextEvent(session, "session.plan_changed");
    await session.rpc.plan.update({ content: "# Plan\n\n- one" });
    expect((await created).data).toEqual({ operation: "create" });
    expect(await session.rpc.plan.read()).toEqual({ exists: true, content: "# Plan\n\n- one", path: file });
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const updated = nextEvent(session, "session.plan_changed");
    await session.rpc.plan.update({ content: "# Plan\n\n- two" });
    expect((await updated).data).toEqual({ operation: "update" });

    const deleted = nextEvent(session, "session.plan_changed");
    await session.rpc.plan.delete();
    expect((await deleted).data).toEqual({ operation: "delete" });
    expect(existsSync(file)).toBe(false);
    expect((await session.rpc.plan.read()).exists).toBe(false);
  });
});

describe("SDK server command line", () => {
  it("fails the client's start with the runtime's stderr when a flag is unknown to Copilot and agent", async () => {
    const client = sdk.world.client({ args: ["--nonexistent-flag-for-testing"] });
    await expect(client.start()).rejects.toThrow(/stderr: error: unknown option '--nonexistent-flag-for-testing'/);
  });

  it("starts with a Copilot flag it has no use for", async () => {
    const client = sdk.world.client({ args: ["--banner"] });
    await client.start();
    expect((await client.ping("x")).message).toBe("pong: x");
  });
});

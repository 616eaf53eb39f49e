/**
 * The session manager is the only owner of a process's sessions: it opens (with the lock, and --continue's
 * "new session instead"), attaches a second user to a session open here, closes with a grace period for a
 * running turn, and deletes by one rule set (never another live process's session; its own closed first).
 */
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SessionManager } from "../../src/core/session-manager.js";
import type { SessionEvent } from "../../src/protocol/events/index.js";
import { LOCK_FILE, SessionLockedError, sessionLockHolder } from "../../src/session/session-lock.js";
import { SessionStore } from "../../src/session/session-store.js";
import { tempDir, testSessionOptions } from "../support/engine-harness.js";
import { hang, startScriptedServer, text, type ScriptedServer } from "../support/scripted-server.js";

let server: ScriptedServer | undefined;
let sessions: SessionManager | undefined;
afterEach(async () => {
  await sessions?.closeAll();
  await server?.close();
  sessions = undefined;
});

async function manager(): Promise<SessionManager> {
  server = await startScriptedServer();
  const home = tempDir("manager-home-");
  sessions = new SessionManager(testSessionOptions({ baseUrl: server.baseUrl, home, cwd: tempDir("manager-cwd-"), store: new SessionStore(home) }));
  return sessions;
}

/** A stored session that another live process holds (this test's parent process stands in for it). */
async function heldElsewhere(manager: SessionManager): Promise<string> {
  const { session } = await manager.open();
  await manager.close(session.id);
  writeFileSync(path.join(session.dir, LOCK_FILE), `${process.ppid}\n`);
  return session.id;
}

describe("the session manager", () => {
  it("opens two sessions at once, one with the caller's id, and keeps them apart; lists, resumes and deletes them", async () => {
    const sessions = await manager();
    const a = (await sessions.open({ sessionId: "my-session" })).session;
    const b = (await sessions.open()).session;
    expect(a.id).toBe("my-session");
    expect(sessions.openIds.sort()).toEqual([a.id, b.id].sort());
    server?.enqueue(text("A."), text("B."));
    const [ra, rb] = await Promise.all([a.dispatch({ type: "send", prompt: "to a" }), b.dispatch({ type: "send", prompt: "to b" })]);
    expect([ra.finalMessage, rb.finalMessage].sort()).toEqual(["A.", "B."]);
    await expect(sessions.open({ sessionId: "my-session" })).rejects.toThrow(/already exists/);
    await expect(sessions.open({ sessionId: "../escape" })).rejects.toThrow(/Invalid session id/);
    await sessions.close(a.id);
    expect(sessions.openIds).toEqual([b.id]);
    expect(sessions.get(a.id)).toBeUndefined();
    const listed = (await sessions.list()).map((meta) => meta.id);
    expect(listed).toEqual(expect.arrayContaining([a.id, b.id]));
    const resumed = await sessions.open({ resumeId: a.id });
    expect(resumed.history.some((event) => event.type === "user.message")).toBe(true);
    expect(await sessions.delete(a.id)).toBeUndefined();
    expect(sessions.store.exists(a.id)).toBe(false);
    expect(sessions.get(a.id)).toBeUndefined();
    await sessions.closeAll();
    expect(sessions.openIds).toEqual([]);
  });

  it("refuses a session another live process holds, or with ifLocked new-session opens a new one and says why", async () => {
    const sessions = await manager();
    const held = await heldElsewhere(sessions);
    const refused = sessions.open({ resumeId: held });
    await expect(refused).rejects.toBeInstanceOf(SessionLockedError);
    await expect(refused).rejects.toThrow(`pid ${process.ppid}`);
    const instead = await sessions.open({ resumeId: held, ifLocked: "new-session" });
    expect(instead.session.id).not.toBe(held);
    expect(instead.resume).toBeUndefined();
    expect(instead.note).toBe(`the latest session here (${held}) is open in another agent process (pid ${process.ppid}); started a new session instead.`);
    // A session this manager holds is not opened a second time: a second user attaches to it.
    await expect(sessions.open({ resumeId: instead.session.id })).rejects.toThrow(/already open in this agent/);
  });

  it("attaches a second user to a session open in this process: the same session, its events for both", async () => {
    const sessions = await manager();
    const first: SessionEvent[] = [];
    const { session } = await sessions.open({ listeners: [(event) => first.push(event)] });
    const attached = sessions.attach(session.id);
    expect(attached).toBe(session);
    const second: SessionEvent[] = [];
    attached?.subscribe((event) => second.push(event));
    server?.enqueue(text("Hello both."));
    await attached?.dispatch({ type: "send", prompt: "hi" });
    const messages = (events: SessionEvent[]) => events.filter((event) => event.type === "assistant.message").map((event) => event.data);
    expect(messages(second)).toEqual(messages(first));
    expect(messages(second)).toHaveLength(1);
    expect(sessions.attach("not-open")).toBeUndefined();
  });

  it("closes with a grace period: a running turn is interrupted and ends (idle, aborted) before the session shuts down", async () => {
    const sessions = await manager();
    const events: SessionEvent[] = [];
    const { session } = await sessions.open({ listeners: [(event) => events.push(event)] });
    server?.enqueue(hang());
    const turn = session.dispatch({ type: "send", prompt: "take your time" });
    await server?.waitForHang();
    await sessions.close(session.id, { graceMs: 60_000 });
    expect((await turn).outcome).toBe("aborted");
    const ends = events.filter((event) => event.type === "session.idle" || event.type === "session.shutdown").map((event) => event.type);
    expect(ends).toEqual(["session.idle", "session.shutdown"]);
    expect(events.find((event) => event.type === "session.idle")?.data).toMatchObject({ aborted: true });
    // Closed, not deleted: its log is whole and its lock released, so it can be resumed.
    expect(sessions.get(session.id)).toBeUndefined();
    expect(sessionLockHolder(session.dir)).toBeUndefined();
    expect((await sessions.open({ resumeId: session.id })).resume).toBeDefined();
  });

  it("deletes by one rule set: never another process's session, its own closed first, a missing one named", async () => {
    const sessions = await manager();
    const held = await heldElsewhere(sessions);
    expect(await sessions.delete(held)).toBe(`Session ${held} is open in another process (pid ${process.ppid}); close it first.`);
    expect(sessions.store.exists(held)).toBe(true);
    expect(await sessions.delete("no-such-session")).toBe("Session not found: no-such-session");

    // /session delete in one session removes another this process holds: it is closed first, then removed.
    const { session: doomed } = await sessions.open();
    const ended: SessionEvent[] = [];
    doomed.subscribe((event) => event.type === "session.shutdown" && ended.push(event));
    const { session: deleter } = await sessions.open();
    const routed = await deleter.dispatch({ type: "input", text: `/session delete ${doomed.id}` });
    expect(routed.kind).toBe("done");
    expect(ended).toHaveLength(1);
    expect(sessions.get(doomed.id)).toBeUndefined();
    expect(existsSync(doomed.dir)).toBe(false);
  });
});

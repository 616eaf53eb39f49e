import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeMetadata } from "../../src/session/session-metadata.js";
import { SessionStore } from "../../src/session/session-store.js";
import { tempDir } from "../support/engine-harness.js";

function addSession(store: SessionStore, id: string, meta: { cwd: string; name?: string; updatedAt: string; firstPrompt?: string | null }): void {
  store.create(id);
  writeFileSync(store.eventsFileOf(id), "");
  const firstPrompt = meta.firstPrompt === null ? undefined : (meta.firstPrompt ?? `prompt of ${id}`);
  writeMetadata(store.dirOf(id), {
    id,
    cwd: meta.cwd,
    name: meta.name,
    userNamed: meta.name !== undefined,
    createdAt: meta.updatedAt,
    updatedAt: meta.updatedAt,
    eventCount: 0,
    firstPrompt,
  });
}

describe("the session store", () => {
  const ids = ["3f2a9c10-1111-4111-8111-111111111111", "3f2a9c10-2222-4222-8222-222222222222", "9b000000-3333-4333-8333-333333333333"];

  function store(): SessionStore {
    const home = tempDir("store-");
    const result = new SessionStore(home);
    addSession(result, ids[0] as string, { cwd: "/work/a", updatedAt: "2026-01-01T00:00:00Z" });
    addSession(result, ids[1] as string, { cwd: "/work/a", name: "Fix Login", updatedAt: "2026-01-03T00:00:00Z" });
    addSession(result, ids[2] as string, { cwd: "/work/b", updatedAt: "2026-01-05T00:00:00Z" });
    return result;
  }

  it("resolves a full id, a unique prefix of 7+ characters, and a name in any case", async () => {
    const sessions = store();
    expect(await sessions.resolve(ids[2] as string)).toEqual({ ok: true, id: ids[2] });
    expect(await sessions.resolve("9b00000")).toEqual({ ok: true, id: ids[2] });
    expect(await sessions.resolve("fix login")).toEqual({ ok: true, id: ids[1] });
  });

  it("refuses ambiguous prefixes, short prefixes and unknown ids with a message", async () => {
    const sessions = store();
    const ambiguous = await sessions.resolve("3f2a9c10");
    expect(ambiguous.ok === false && ambiguous.message).toMatch(/matches 2 sessions/);
    expect(await sessions.resolve("3f2a9c10-1")).toEqual({ ok: true, id: ids[0] });
    const unknown = await sessions.resolve("00000000-0000-4000-8000-000000000000");
    expect(unknown.ok === false && unknown.message).toMatch(/No session with id/);
    // Six characters are too few for a prefix, and no session has that name.
    const short = await sessions.resolve("9b0000");
    expect(short.ok === false && short.message).toMatch(/No session matches/);
  });

  it("finds the latest session for a directory and lists newest first", async () => {
    const sessions = store();
    // A newer session in /work/a that was opened and left without a prompt is not a conversation.
    addSession(sessions, "aaaaaaaa-4444-4444-8444-444444444444", { cwd: "/work/a", updatedAt: "2026-01-09T00:00:00Z", firstPrompt: null });
    expect((await sessions.conversations()).map((session) => session.id)).not.toContain("aaaaaaaa-4444-4444-8444-444444444444");
    expect((await sessions.latestFor("/work/a"))?.id).toBe(ids[1]);
    expect(await sessions.latestFor("/work/c")).toBeUndefined();
    expect((await sessions.conversations()).map((session) => session.id)).toEqual([ids[2], ids[1], ids[0]]);
  });

  it("reads a workspace.yaml written by Copilot CLI", async () => {
    const home = tempDir("store-");
    const sessions = new SessionStore(home);
    const id = "12345678-aaaa-4aaa-8aaa-aaaaaaaaaaaa";
    mkdirSync(sessions.dirOf(id), { recursive: true });
    writeFileSync(sessions.eventsFileOf(id), "");
    writeFileSync(
      path.join(sessions.dirOf(id), "workspace.yaml"),
      `id: ${id}\ncwd: /home/me/project\nclient_name: github/cli\nname: My Session\nuser_named: true\nsummary_count: 0\ncreated_at: 2026-02-01T10:00:00.000Z\nupdated_at: 2026-02-02T10:00:00.000Z\n`,
    );
    const [listed] = await sessions.list();
    expect(listed).toMatchObject({ id, cwd: "/home/me/project", name: "My Session", userNamed: true });
    expect(await sessions.resolve("my session")).toEqual({ ok: true, id });
  });
});

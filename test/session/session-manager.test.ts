/** The session manager holds several sessions by id: a caller may name one, list, close and delete them. */
import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { SessionManager } from "../../src/core/session-manager.js";
import { createOpenAIChatProvider } from "../../src/provider/openai-chat.js";
import { noPermissionFlags } from "../../src/permissions/policy.js";
import { SessionStore } from "../../src/session/session-store.js";
import { sessionPermissions, tempDir, testProviderConfig } from "../support/engine-harness.js";
import { startScriptedServer, text, type ScriptedServer } from "../support/scripted-server.js";

let server: ScriptedServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await server?.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function manager(): Promise<SessionManager> {
  server = await startScriptedServer();
  const home = tempDir("manager-home-");
  const cwd = tempDir("manager-cwd-");
  dirs.push(home, cwd);
  const config = testProviderConfig(server.baseUrl);
  return new SessionManager({
    store: new SessionStore(home),
    agentHome: home,
    cwd,
    provider: createOpenAIChatProvider(config),
    providerConfig: config,
    maxAutopilotContinues: 5,
    interactive: false,
    permissions: sessionPermissions(noPermissionFlags),
    customInstructions: false,
  });
}

describe("the session manager", () => {
  it("opens two sessions at once, one with the caller's id, and keeps them apart", async () => {
    const sessions = await manager();
    const a = (await sessions.openSession({ sessionId: "my-session" })).session;
    const b = (await sessions.openSession()).session;
    expect(a.id).toBe("my-session");
    expect(sessions.openIds.sort()).toEqual([a.id, b.id].sort());
    server?.enqueue(text("A."), text("B."));
    const [ra, rb] = await Promise.all([a.dispatch({ type: "send", prompt: "to a" }), b.dispatch({ type: "send", prompt: "to b" })]);
    expect([ra.finalMessage, rb.finalMessage].sort()).toEqual(["A.", "B."]);
    await expect(sessions.openSession({ sessionId: "my-session" })).rejects.toThrow(/already exists/);
    await expect(sessions.openSession({ sessionId: "../escape" })).rejects.toThrow(/Invalid session id/);
    sessions.close(a.id);
    expect(sessions.openIds).toEqual([b.id]);
    const listed = (await sessions.list()).map((meta) => meta.id);
    expect(listed).toEqual(expect.arrayContaining([a.id, b.id]));
    const resumed = await sessions.openSession({ resumeId: a.id });
    expect(resumed.history.some((event) => event.type === "user.message")).toBe(true);
    sessions.delete(a.id);
    expect(sessions.store.exists(a.id)).toBe(false);
    sessions.closeAll();
    expect(sessions.openIds).toEqual([]);
  });
});

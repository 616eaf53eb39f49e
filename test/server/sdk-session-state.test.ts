/**
 * The SDK's session-state methods through the real Copilot SDK and bin/agent.js: the name (set, refused when
 * empty, setAuto only over no name or an earlier auto name), the event log (tail, read, a long poll with a
 * type filter), the queue, the permission mode, usage metrics and shutdown.
 */
import { mkdtempSync, realpathSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "@github/copilot-sdk";
import { text, toolCall } from "../support/scripted-server.js";
import { nextEvent, useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();

async function newSession() {
  const client = sdk.world.client();
  const session = await client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest: () => ({ kind: "approve-once" }) });
  return { client, session };
}

describe("SDK session-state methods", () => {
  it("name.set renames and refuses an empty name; setAuto applies only over no name or an auto name", async () => {
    const { client, session } = await newSession();
    expect(await session.rpc.name.get()).toEqual({ name: null });
    await expect(session.rpc.name.set({ name: " \t " })).rejects.toThrow(/empty/i);
    expect(await session.rpc.name.setAuto({ summary: "  First summary " })).toEqual({ applied: true });
    expect(await session.rpc.name.setAuto({ summary: "Second summary" })).toEqual({ applied: true });
    expect(await session.rpc.name.get()).toEqual({ name: "Second summary" });
    const titled = nextEvent(session, "session.title_changed");
    await session.rpc.name.set({ name: "Chosen" });
    expect((await titled).data.title).toBe("Chosen");
    expect(await session.rpc.name.setAuto({ summary: "Ignored" })).toEqual({ applied: false });
    expect(await session.rpc.name.get()).toEqual({ name: "Chosen" });
    await client.stop();
  });

  it("eventLog.read pages from the start, is empty at the tail, and a long poll returns the filtered event", async () => {
    const { client, session } = await newSession();
    await session.rpc.plan.update({ content: "# Plan" });
    const all = await session.rpc.eventLog.read({ max: 100, waitMs: 0 });
    expect(all.cursorStatus).toBe("ok");
    expect(all.events.map((event: SessionEvent) => event.type)).toContain("session.plan_changed");
    const tail = await session.rpc.eventLog.tail();
    expect(await session.rpc.eventLog.read({ cursor: tail.cursor, waitMs: 0 })).toMatchObject({ events: [], hasMore: false, cursor: tail.cursor });
    const polled = session.rpc.eventLog.read({ cursor: tail.cursor, waitMs: 5000, types: ["session.title_changed"] });
    await session.rpc.plan.update({ content: "# Plan 2" });
    await session.rpc.name.set({ name: "Polled" });
    const read = await polled;
    expect(read.events.map((event: SessionEvent) => event.type)).toEqual(["session.title_changed"]);
    await expect(session.rpc.eventLog.read({ cursor: "nonsense" })).rejects.toThrow(/cursor/);
    await client.stop();
  });

  it("an empty queue has no items, and removing from it removes nothing", async () => {
    const { client, session } = await newSession();
    expect(await session.rpc.queue.pendingItems()).toEqual({ items: [], steeringMessages: [] });
    expect(await session.rpc.queue.removeMostRecent()).toEqual({ removed: false });
    await session.rpc.queue.clear();
    expect(await session.rpc.metadata.activity()).toEqual({ hasActiveWork: false, abortable: false });
    await client.stop();
  });

  it("the permission mode follows setMode, usage metrics report the start, and shutdown ends the session", async () => {
    const { client, session } = await newSession();
    expect(await session.rpc.permissions.getMode()).toEqual({ mode: "manual" });
    expect(await session.rpc.permissions.setMode({ mode: "allow-all" })).toEqual({ success: true, mode: "allow-all" });
    expect(await session.rpc.permissions.getMode()).toEqual({ mode: "allow-all" });
    const metrics = await session.rpc.usage.getMetrics();
    expect(Date.parse(metrics.sessionStartTime)).not.toBeNaN();
    expect(await session.rpc.plan.readSqlTodos()).toEqual({ rows: [] });
    const ended = nextEvent(session, "session.shutdown");
    await session.rpc.shutdown({ type: "routine", reason: "test" });
    expect((await ended).data.shutdownType).toBe("routine");
    await expect(session.rpc.name.get()).rejects.toThrow(/not found/i);
    await client.stop();
  });
});

describe("SDK session metadata methods", () => {
  it("the snapshot follows setWorkingDirectory and options.update; a recorded context for the cwd is told, another cwd's is not", async () => {
    const { client, session } = await newSession();
    const first = await session.rpc.metadata.snapshot();
    expect(first).toMatchObject({
      sessionId: session.sessionId,
      isRemote: false,
      alreadyInUse: false,
      currentMode: "interactive",
      selectedModel: "scripted-model",
    });
    expect(first.workspace?.id).toBe(session.sessionId);
    const second = realpathSync(mkdtempSync(path.join(sdk.world.cwd, "second-")));
    expect(await session.rpc.metadata.setWorkingDirectory({ workingDirectory: second })).toEqual({ workingDirectory: second });
    expect((await session.rpc.metadata.snapshot()).workingDirectory).toBe(second);
    const changes: string[] = [];
    session.on("session.context_changed", (event) => changes.push(event.data.branch ?? ""));
    await session.rpc.metadata.recordContextChange({ context: { cwd: sdk.world.cwd, branch: "elsewhere" } });
    const told = nextEvent(session, "session.context_changed");
    await session.rpc.metadata.recordContextChange({ context: { cwd: second, branch: "feature", repositoryHost: "github.com", baseCommit: "0".repeat(40) } });
    expect((await told).data).toMatchObject({ cwd: second, branch: "feature", repositoryHost: "github.com", baseCommit: "0".repeat(40) });
    expect(changes).toEqual(["feature"]);
    const third = realpathSync(mkdtempSync(path.join(sdk.world.cwd, "third-")));
    expect(await session.rpc.options.update({ workingDirectory: third })).toEqual({ success: true });
    expect((await session.rpc.metadata.snapshot()).workingDirectory).toBe(third);
    await expect(session.rpc.metadata.setWorkingDirectory({ workingDirectory: path.join(third, "missing") })).rejects.toThrow();
    expect(await session.rpc.metadata.isProcessing()).toEqual({ processing: false });
    await client.stop();
  });

  it("the current tools are the main agent's, each with a name and description", async () => {
    const { client, session } = await newSession();
    const { tools } = await session.rpc.tools.getCurrentMetadata();
    const names = (tools ?? []).map((tool) => tool.name);
    expect(names).toContain("bash");
    expect(names).toContain("ask_user");
    for (const tool of tools ?? []) expect(tool.description).toBeTruthy();
    await client.stop();
  });
});

describe("SDK todo reads", () => {
  it("readSqlTodosWithDependencies gives the sql tool's rows and edges after session.todos_changed", async () => {
    const query =
      "INSERT INTO todos (id, title, status) VALUES ('alpha', 'First', 'pending'); INSERT INTO todos (id, title, status) VALUES ('beta', 'Second', 'done'); INSERT INTO todo_deps (todo_id, depends_on) VALUES ('beta', 'alpha')";
    sdk.server.enqueue(toolCall("sql", { description: "add todos", query }), text("Done."));
    const { client, session } = await newSession();
    expect(await session.rpc.plan.readSqlTodosWithDependencies()).toEqual({ rows: [], dependencies: [] });
    const changed = nextEvent(session, "session.todos_changed");
    await session.sendAndWait({ prompt: "add them" });
    await changed;
    const read = await session.rpc.plan.readSqlTodosWithDependencies();
    expect(read.rows.map((row) => row.id).sort()).toEqual(["alpha", "beta"]);
    expect(read.dependencies).toEqual([{ todoId: "beta", dependsOn: "alpha" }]);
    expect((await session.rpc.plan.readSqlTodos()).rows).toHaveLength(2);
    await client.stop();
  });
});

/**
 * The SDK's permission, schedule and suspend methods through the real Copilot SDK and bin/agent.js:
 * approve-all answers without the client's handler, session rules approve a command, the allowed
 * directories follow paths.add and updatePrimary, a pending question is listed, and suspend withdraws it.
 */
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { approveAll } from "@github/copilot-sdk";
import { text, toolCall } from "../support/scripted-server.js";
import { nextEvent, recordingHandler, useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();

describe("SDK permission methods", () => {
  it("setApproveAll approves without asking the handler, and off asks it again", async () => {
    const marker = path.join(sdk.world.cwd, "approved.txt");
    sdk.server.enqueue(toolCall("bash", { command: `touch ${marker}`, description: "marker" }), text("Done."));
    sdk.server.enqueue(toolCall("bash", { command: `rm ${marker}`, description: "remove" }), text("Removed."));
    const { asked, onPermissionRequest } = recordingHandler();
    const client = sdk.world.client();
    const session = await client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest });
    expect(await session.rpc.permissions.setApproveAll({ enabled: true })).toEqual({ success: true });
    await session.sendAndWait({ prompt: "touch it" });
    expect(asked).toEqual([]);
    await session.rpc.permissions.setApproveAll({ enabled: false });
    await session.sendAndWait({ prompt: "remove it" });
    expect(asked.map((request) => request.kind)).toEqual(["shell"]);
    await client.stop();
  });

  it("a session rule added by modifyRules approves its command; removed, the handler is asked", async () => {
    const marker = path.join(sdk.world.cwd, "ruled.txt");
    sdk.server.enqueue(toolCall("bash", { command: `touch ${marker}`, description: "marker" }), text("Done."));
    sdk.server.enqueue(toolCall("bash", { command: `touch ${marker}`, description: "again" }), text("Again."));
    const handler = recordingHandler();
    const asked = () => handler.asked.map((request) => request.kind);
    const client = sdk.world.client();
    const session = await client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest: handler.onPermissionRequest });
    const rule = { kind: "commands", argument: "touch" };
    expect(await session.rpc.permissions.modifyRules({ scope: "session", add: [rule] })).toEqual({ success: true });
    await session.sendAndWait({ prompt: "touch" });
    expect(asked()).toEqual([]);
    await session.rpc.permissions.modifyRules({ scope: "session", remove: [rule] });
    await session.sendAndWait({ prompt: "touch again" });
    expect(asked()).toEqual(["shell"]);
    await expect(session.rpc.permissions.modifyRules({ scope: "location", add: [rule] })).rejects.toThrow(/session only/);
    await expect(session.rpc.permissions.modifyRules({ scope: "session", add: [{ kind: "write", argument: null }] })).rejects.toThrow(/no session rule/);
    await client.stop();
  });

  it("the allowed directories follow paths.add and paths.updatePrimary", async () => {
    // Outside the temporary directory (which tools may use anyway); only read, never written.
    const outside = realpathSync(path.dirname(process.execPath));
    const primary = path.join(sdk.world.cwd, "primary");
    mkdirSync(primary, { recursive: true });
    const client = sdk.world.client();
    const session = await client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest: approveAll });
    const paths = session.rpc.permissions.paths;
    expect((await paths.list()).primary).toBe(sdk.world.cwd);
    expect((await paths.isPathWithinAllowedDirectories({ path: path.join(outside, "a.txt") })).allowed).toBe(false);
    expect(await paths.add({ path: outside })).toEqual({ success: true });
    expect((await paths.isPathWithinAllowedDirectories({ path: path.join(outside, "a.txt") })).allowed).toBe(true);
    expect((await paths.isPathWithinWorkspace({ path: path.join(outside, "a.txt") })).allowed).toBe(false);
    expect(await paths.updatePrimary({ path: primary })).toEqual({ success: true });
    const listed = await paths.list();
    expect(listed.primary).toBe(primary);
    expect(listed.directories).toEqual(expect.arrayContaining([primary, outside]));
    expect((await paths.isPathWithinWorkspace({ path: path.join(primary, "b.txt") })).allowed).toBe(true);
    // A directory an allowed one covers is listed once added, as Copilot lists it.
    const nested = path.join(primary, "nested");
    mkdirSync(nested);
    expect(await session.rpc.permissions.configure({ paths: { additionalDirectories: [nested] } } as never)).toEqual({ success: true });
    expect((await paths.list()).directories).toContain(nested);
    await expect(paths.updatePrimary({ path: path.join(primary, "missing") })).rejects.toThrow(/not a directory/);
    await client.stop();
  });

  it("a handler that says its user is away denies the call in Copilot's words, which no person refused", async () => {
    const marker = path.join(sdk.world.cwd, "away.txt");
    sdk.server.enqueue(toolCall("bash", { command: `touch ${marker}`, description: "marker" }), text("Could not."));
    const client = sdk.world.client();
    const session = await client.createSession({
      provider: sdk.provider(),
      model: "scripted-model",
      onPermissionRequest: () => ({ kind: "user-not-available" }),
    });
    const completed = nextEvent(session, "tool.execution_complete");
    expect((await session.sendAndWait({ prompt: "touch" }))?.data.content).toBe("Could not.");
    expect((await completed).data.error?.message).toBe("Permission denied and could not request permission from user");
    expect(JSON.stringify(sdk.server.completionRequests[1]?.body.messages)).toContain("Permission denied and could not request permission from user");
    await client.stop();
  });

  it("lists a waiting permission question, and suspend withdraws it without running the call", async () => {
    const marker = path.join(sdk.world.cwd, "never.txt");
    writeFileSync(path.join(sdk.world.cwd, "keep.txt"), "x");
    sdk.server.enqueue(toolCall("bash", { command: `touch ${marker}`, description: "marker" }), text("unused"));
    let entered!: () => void;
    const asked = new Promise<void>((resolve) => (entered = resolve));
    const client = sdk.world.client();
    const session = await client.createSession({
      provider: sdk.provider(),
      model: "scripted-model",
      onPermissionRequest: () => {
        entered();
        return new Promise(() => undefined);
      },
    });
    expect((await session.rpc.permissions.pendingRequests()).items).toEqual([]);
    expect((await session.rpc.schedule.list()).entries).toEqual([]);
    const idle = nextEvent(session, "session.idle");
    await session.send({ prompt: "touch" });
    await asked;
    const pending = await session.rpc.permissions.pendingRequests();
    expect(pending.items).toHaveLength(1);
    expect(pending.items[0]?.request.kind).toBe("shell");
    await session.rpc.suspend();
    await idle;
    expect((await session.rpc.permissions.pendingRequests()).items).toEqual([]);
    expect(sdk.server.completionRequests).toHaveLength(1);
    await client.stop();
  });
});

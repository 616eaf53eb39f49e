/**
 * Kept approvals and folder trust over the real Copilot SDK and bin/agent.js: locations.resolve names a
 * repository's root or the directory, addToolApproval keeps a command for a location (permissions-config.json)
 * and the session stops asking about it, apply gives a session the approvals kept for a directory and lists
 * them as Copilot's rules, kinds agent keeps no approval for are refused, and folderTrust reads and writes the
 * user's trusted folders.
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { approveAll } from "@github/copilot-sdk";
import { text, toolCall } from "../support/scripted-server.js";
import { recordingHandler, useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();

describe("SDK permission locations and folder trust", () => {
  it("resolve names a directory, or the root of the repository it is in", async () => {
    const plain = path.join(sdk.world.cwd, "plain");
    const repo = path.join(sdk.world.cwd, "repo");
    mkdirSync(plain, { recursive: true });
    mkdirSync(path.join(repo, ".git"), { recursive: true });
    mkdirSync(path.join(repo, "src"), { recursive: true });
    const client = sdk.world.client();
    const session = await client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest: approveAll });
    const locations = session.rpc.permissions.locations;
    expect(await locations.resolve({ workingDirectory: plain })).toEqual({ locationKey: plain, locationType: "dir" });
    expect(await locations.resolve({ workingDirectory: path.join(repo, "src") })).toEqual({ locationKey: repo, locationType: "repo" });
    await expect(locations.resolve({ workingDirectory: path.join(plain, "missing") })).rejects.toThrow(/does not exist/);
    await client.stop();
  });

  it("a command kept for the session's location is not asked about again, and apply lists it as a shell rule", async () => {
    sdk.server.enqueue(toolCall("bash", { command: "touch kept.txt", description: "touch" }), text("Done."));
    const { asked, onPermissionRequest } = recordingHandler();
    const client = sdk.world.client();
    const session = await client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest });
    const locations = session.rpc.permissions.locations;
    const { locationKey } = await locations.resolve({ workingDirectory: sdk.world.cwd });
    expect(await locations.addToolApproval({ locationKey, approval: { kind: "commands", commandIdentifiers: ["touch"] } })).toEqual({ success: true });
    const kept = JSON.parse(readFileSync(path.join(sdk.world.home, "permissions-config.json"), "utf8"));
    expect(kept.locations[locationKey].tool_approvals).toEqual([{ kind: "commands", commandIdentifiers: ["touch"] }]);
    await session.sendAndWait({ prompt: "touch it" });
    expect(asked).toEqual([]);
    const applied = await locations.apply({ workingDirectory: sdk.world.cwd });
    expect(applied).toMatchObject({ locationKey, locationType: "dir", changed: false, appliedRuleCount: 1 });
    expect(applied.appliedRules).toEqual([{ kind: "shell", argument: "touch" }]);
    await expect(locations.addToolApproval({ locationKey, approval: { kind: "write" } })).rejects.toThrow(/no location approval of kind "write"/);
    await client.stop();
  });

  it("apply gives a session the approvals kept for another directory (addToolApproval gives them to its own at once)", async () => {
    const other = path.join(sdk.world.cwd, "other");
    mkdirSync(other, { recursive: true });
    sdk.server.enqueue(
      toolCall("bash", { command: "touch before.txt", description: "touch" }),
      text("Asked."),
      toolCall("bash", { command: "touch after.txt", description: "touch" }),
      text("Not asked."),
    );
    const { asked, onPermissionRequest } = recordingHandler();
    const client = sdk.world.client();
    const keeper = await client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest: approveAll });
    // Kept for a directory below the sessions' own: it does not count for them until applied.
    const { locationKey } = await keeper.rpc.permissions.locations.resolve({ workingDirectory: other });
    await keeper.rpc.permissions.locations.addToolApproval({ locationKey, approval: { kind: "commands", commandIdentifiers: ["touch"] } });
    const session = await client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest });
    const locations = session.rpc.permissions.locations;
    expect((await locations.apply({ workingDirectory: sdk.world.cwd })).appliedRuleCount).toBe(0);
    await session.sendAndWait({ prompt: "touch before" });
    expect(asked.map((request) => request.kind)).toEqual(["shell"]);
    const applied = await locations.apply({ workingDirectory: other });
    expect(applied).toMatchObject({ locationKey: other, changed: true, appliedRules: [{ kind: "shell", argument: "touch" }] });
    await session.sendAndWait({ prompt: "touch after" });
    expect(asked).toHaveLength(1);
    await client.stop();
  });

  it("folderTrust says a folder is not trusted until it is added to the user's trusted folders", async () => {
    const folder = path.join(sdk.world.cwd, "trusted");
    mkdirSync(path.join(folder, "below"), { recursive: true });
    const client = sdk.world.client();
    const session = await client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest: approveAll });
    const trust = session.rpc.permissions.folderTrust;
    expect(await trust.isTrusted({ path: folder })).toEqual({ trusted: false });
    expect(await trust.addTrusted({ path: folder })).toEqual({ success: true });
    expect(await trust.isTrusted({ path: folder })).toEqual({ trusted: true });
    expect(await trust.isTrusted({ path: path.join(folder, "below") })).toEqual({ trusted: true });
    expect(await trust.isTrusted({ path: sdk.world.cwd })).toEqual({ trusted: false });
    expect(JSON.parse(readFileSync(path.join(sdk.world.home, "config.json"), "utf8")).trustedFolders).toEqual([folder]);
    await client.stop();
  });
});

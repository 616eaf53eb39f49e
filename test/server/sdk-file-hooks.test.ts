/**
 * Hook files in server mode, through the real Copilot SDK and the real bin/agent.js: the user's hooks and a
 * trusted repository's run for an SDK session (beside the client's own hooks), an untrusted repository's
 * do not (the client is warned how to trust it), and the SDK's enableFileHooks: false keeps them all out.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { approveAll } from "@github/copilot-sdk";
import { text } from "../support/scripted-server.js";
import { scriptedProvider, useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();
beforeEach(() => {
  // A repository (its root marked by .git) whose hook file touches a marker when a prompt is submitted.
  mkdirSync(path.join(sdk.world.cwd, ".git"), { recursive: true });
  mkdirSync(path.join(sdk.world.cwd, ".github", "hooks"), { recursive: true });
  writeFileSync(path.join(sdk.world.cwd, ".github", "hooks", "repo.json"), hooksTouching("repo-hook-ran"));
  mkdirSync(path.join(sdk.world.home, "hooks"), { recursive: true });
  writeFileSync(path.join(sdk.world.home, "hooks", "user.json"), hooksTouching("user-hook-ran"));
});

const hooksTouching = (marker: string) => JSON.stringify({ version: 1, hooks: { userPromptSubmitted: [{ type: "command", bash: `touch ${marker}` }] } });
const ran = (marker: string) => existsSync(path.join(sdk.world.cwd, marker));

describe("hook files for SDK sessions", () => {
  it("runs the user's hook files and, in a trusted folder only, the repository's, beside the client's hooks", async () => {
    sdk.server.enqueue(text("one"), text("two"), text("three"));
    const client = sdk.world.client();
    const prompts: string[] = [];
    const open = (extra: { enableFileHooks?: boolean } = {}) =>
      client.createSession({
        provider: scriptedProvider(sdk.server.baseUrl),
        model: "scripted-model",
        onPermissionRequest: approveAll,
        hooks: { onUserPromptSubmitted: (input) => void prompts.push(input.prompt) },
        ...extra,
      });

    const untrusted = await open();
    await untrusted.sendAndWait({ prompt: "first" });
    expect(ran("user-hook-ran")).toBe(true);
    expect(ran("repo-hook-ran")).toBe(false);
    expect(prompts).toEqual(["first"]);
    const warnings = (await untrusted.getEvents()).filter((event) => event.type === "session.warning");
    expect(warnings.map((event) => (event.data as { message: string }).message).join("\n")).toContain(`add "${sdk.world.cwd}" to "trustedFolders"`);

    writeFileSync(path.join(sdk.world.home, "config.json"), JSON.stringify({ trustedFolders: [sdk.world.cwd] }));
    const trusted = await open();
    await trusted.sendAndWait({ prompt: "second" });
    expect(ran("repo-hook-ran")).toBe(true);
    expect(prompts).toEqual(["first", "second"]);

    // The SDK's "empty" mode sends enableFileHooks: false: no hook file runs, the client's hooks still do.
    for (const marker of ["user-hook-ran", "repo-hook-ran"]) rmSync(path.join(sdk.world.cwd, marker));
    const isolated = await open({ enableFileHooks: false });
    await isolated.sendAndWait({ prompt: "third" });
    expect(ran("user-hook-ran")).toBe(false);
    expect(ran("repo-hook-ran")).toBe(false);
    expect(prompts).toEqual(["first", "second", "third"]);
    await client.stop();
  });
});

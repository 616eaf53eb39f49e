/**
 * A client's skills and plugins through the real Copilot SDK and bin/agent.js: skillDirectories and
 * disabledSkills, session.skills.*, a custom agent's skills (in its system prompt, as Copilot's), the session's
 * plugins and extensions, and the server-scoped plugins.* / plugins.marketplaces.* over $AGENT_HOME/plugins.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { approveAll, type SessionConfig } from "@github/copilot-sdk";
import { text, toolCall } from "../support/scripted-server.js";
import { useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();

function writeSkill(dir: string, name: string, description: string, body = `${name.toUpperCase()} BODY`): string {
  mkdirSync(path.join(dir, name), { recursive: true });
  const file = path.join(dir, name, "SKILL.md");
  writeFileSync(file, `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`);
  return file;
}

/** A session on the scripted server with the client's skill options. */
function newSession(options: Pick<SessionConfig, "skillDirectories" | "disabledSkills" | "customAgents" | "agent">) {
  return sdk.world.client().createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest: approveAll, ...options });
}

const systemOf = (index: number) => String(sdk.server.completionRequests[index]?.body.messages.find((message) => message.role === "system")?.content ?? "");
const usersOf = (index: number) =>
  (sdk.server.completionRequests[index]?.body.messages ?? []).filter((message) => message.role === "user").map((message) => String(message.content));

describe("SDK skills", () => {
  it("reads a client's skillDirectories, starts its disabledSkills disabled, toggles and reloads them, and loads one in Copilot's layout", async () => {
    const skills = path.join(sdk.world.cwd, "client-skills");
    const file = writeSkill(skills, "tidy", "Tidies things.");
    writeSkill(skills, "off", "Starts disabled.");
    const session = await newSession({ skillDirectories: [skills], disabledSkills: ["off"] });
    const states = async () => Object.fromEntries((await session.rpc.skills.list()).skills.map((skill) => [skill.name, skill.enabled]));
    expect(await states()).toMatchObject({ tidy: true, off: false });
    expect((await session.rpc.skills.list()).skills.find((skill) => skill.name === "tidy")?.path).toBe(file);
    await session.rpc.skills.enable({ name: "off" });
    expect(await states()).toMatchObject({ off: true });
    await session.rpc.skills.disable({ name: "off" });
    expect(await states()).toMatchObject({ off: false });
    await expect(session.rpc.skills.enable({ name: "no-such-skill" })).rejects.toThrow(/no-such-skill/);

    writeSkill(skills, "later", "Written after the start.");
    await session.rpc.skills.reload();
    expect(await states()).toMatchObject({ later: true });
    await session.rpc.skills.ensureLoaded();
    expect((await session.rpc.skills.getInvoked()).skills).toEqual([]);

    sdk.server.enqueue(toolCall("skill", { skill: "tidy" }), text("Tidied."));
    await session.sendAndWait({ prompt: "tidy up" });
    expect(systemOf(0)).toContain("<name>tidy</name>");
    expect(systemOf(0)).not.toContain("<name>off</name>");
    expect(usersOf(1).at(-1)).toBe(`<skill-context name="tidy">\nBase directory for this skill: ${path.dirname(file)}\n\nTIDY BODY\n\n</skill-context>`);
    const invoked = (await session.rpc.skills.getInvoked()).skills;
    expect(invoked.map((skill) => [skill.name, skill.path, skill.content])).toEqual([["tidy", file, "TIDY BODY"]]);
  });

  it("gives a client's custom agent its named skills in its system prompt, not the conversation", async () => {
    const skills = path.join(sdk.world.cwd, "agent-skills");
    writeSkill(skills, "alpha", "Alpha things.");
    writeSkill(skills, "beta", "Beta things.");
    sdk.server.enqueue(text("Hello."));
    const session = await newSession({
      skillDirectories: [skills],
      customAgents: [{ name: "beta-agent", description: "Uses beta.", prompt: "You are the beta agent.", skills: ["beta"] }],
      agent: "beta-agent",
    });
    await session.sendAndWait({ prompt: "hello" });
    expect(systemOf(0)).toContain('<skill-context name="beta">');
    expect(systemOf(0)).toContain("BETA BODY");
    expect(systemOf(0)).not.toContain("ALPHA BODY");
    expect(usersOf(0).join("\n")).not.toContain("<skill-context");
  });

  it("lists the session's plugins and no extensions, and refuses to toggle extensions", async () => {
    const session = await newSession({});
    expect((await session.rpc.plugins.list()).plugins).toEqual([]);
    expect((await session.rpc.extensions.list()).extensions).toEqual([]);
    await expect(session.rpc.extensions.enable({ id: "x" })).rejects.toThrow(/Extensions not available/);
    await expect(session.rpc.extensions.reload()).rejects.toThrow(/Extensions not available/);
  });
});

describe("SDK plugins", () => {
  function marketplace(): string {
    const dir = path.join(sdk.world.cwd, "market");
    mkdirSync(path.join(dir, "demo"), { recursive: true });
    writeFileSync(
      path.join(dir, "marketplace.json"),
      JSON.stringify({
        name: "local-market",
        owner: { name: "t" },
        plugins: [{ name: "demo", source: "./demo", description: "A demo plugin.", version: "1.0.0" }],
      }),
    );
    writeFileSync(path.join(dir, "demo", "plugin.json"), JSON.stringify({ name: "demo", description: "A demo plugin.", version: "1.0.0" }));
    writeSkill(path.join(dir, "demo", "skills"), "demo-skill", "A plugin's skill.");
    return dir;
  }

  it("adds a marketplace, installs from it, disables, enables, updates, browses, refreshes and removes it", async () => {
    const dir = marketplace();
    const client = sdk.world.client();
    await client.start();
    expect(await client.rpc.plugins.marketplaces.add({ source: dir })).toEqual({ name: "local-market" });
    const install = await client.rpc.plugins.install({ source: "demo@local-market" });
    expect(install.plugin).toMatchObject({ name: "demo", marketplace: "local-market", enabled: true });
    expect(install.skillsInstalled).toBe(1);
    expect(install.deprecationWarning).toBeUndefined();

    await client.rpc.plugins.disable({ names: ["demo@local-market"] });
    expect((await client.rpc.plugins.list()).plugins).toEqual([{ name: "demo", marketplace: "local-market", version: "1.0.0", enabled: false }]);
    await client.rpc.plugins.enable({ names: ["demo@local-market"] });
    expect((await client.rpc.plugins.list()).plugins[0]?.enabled).toBe(true);
    expect(await client.rpc.plugins.update({ name: "demo@local-market" })).toEqual({ previousVersion: "1.0.0", newVersion: "1.0.0", skillsInstalled: 1 });
    expect((await client.rpc.plugins.updateAll()).results).toEqual([
      { name: "demo", marketplace: "local-market", success: true, previousVersion: "1.0.0", newVersion: "1.0.0", skillsInstalled: 1 },
    ]);

    // A session started now has the plugin's skill and lists the plugin.
    const session = await client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest: approveAll });
    expect((await session.rpc.skills.list()).skills.find((skill) => skill.name === "demo-skill")?.pluginName).toBe("demo");
    expect((await session.rpc.plugins.list()).plugins.map((plugin) => plugin.name)).toEqual(["demo"]);

    expect((await client.rpc.plugins.marketplaces.browse({ name: "local-market" })).plugins).toEqual([
      { name: "demo", description: "A demo plugin.", version: "1.0.0" },
    ]);
    expect((await client.rpc.plugins.marketplaces.refresh({ name: "local-market" })).results).toEqual([{ name: "local-market", success: true }]);
    expect((await client.rpc.plugins.marketplaces.list()).marketplaces.map((entry) => entry.name)).toEqual(["local-market"]);
    expect(await client.rpc.plugins.marketplaces.remove({ name: "local-market" })).toEqual({ removed: true });
    expect((await client.rpc.plugins.marketplaces.list()).marketplaces).toEqual([]);
    await expect(client.rpc.plugins.marketplaces.browse({ name: "local-market" })).rejects.toThrow(/no marketplace named local-market/);
  });

  it("installs a plugin from a folder with a deprecation warning, and uninstalls it by its directSourceId", async () => {
    const dir = path.join(marketplace(), "demo");
    const client = sdk.world.client();
    await client.start();
    const install = await client.rpc.plugins.install({ source: dir });
    expect(install.plugin).toMatchObject({ name: "demo", marketplace: "", directSourceId: "demo" });
    expect(install.deprecationWarning).toMatch(/deprecated/);
    await client.rpc.plugins.uninstall({ name: "demo", directSourceId: install.plugin.directSourceId });
    expect((await client.rpc.plugins.list()).plugins).toEqual([]);
    await expect(client.rpc.plugins.uninstall({ name: "demo" })).rejects.toThrow(/No plugin named demo/);
  });
});

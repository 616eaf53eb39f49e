/**
 * Session options and server methods an SDK application uses beside the conversation, through the real
 * Copilot SDK and the real bin/agent.js: a session's own plugin folders and disabled MCP servers; the
 * server-wide discovery of skills, agents and instruction files.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { approveAll, type SessionConfig } from "@github/copilot-sdk";
import { text, toolCall } from "../support/scripted-server.js";
import { miniMcpServer, useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();

async function openSession(config: Partial<SessionConfig> = {}) {
  const client = sdk.world.client();
  const session = await client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest: approveAll, ...config });
  return { client, session };
}

/** A plugin folder (plugin.json and .mcp.json) whose two servers are the test MCP server. */
function pluginWithServers(name: string): string {
  const dir = path.join(sdk.world.cwd, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "plugin.json"), JSON.stringify({ name, version: "1.0.0" }));
  const { command, args, workingDirectory: cwd } = miniMcpServer();
  writeFileSync(path.join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { control: { command, args, cwd }, off: { command, args, cwd } } }));
  return dir;
}

describe("SDK session plugins and disabled MCP servers", () => {
  it("loads a session's pluginDirectories and lists its disabledMcpServers as disabled, not started", async () => {
    const dir = pluginWithServers("local-tools");
    sdk.server.enqueue(text("Ready."));
    const { client, session } = await openSession({ pluginDirectories: [dir], disabledMcpServers: ["off"] });
    await session.sendAndWait({ prompt: "hello" }, 30_000);
    expect((await session.rpc.mcp.list()).servers).toEqual([
      { name: "control", status: "connected" },
      { name: "off", status: "disabled" },
    ]);
    expect((await session.rpc.mcp.isServerRunning({ serverName: "off" })).running).toBe(false);
    const tools = (sdk.server.completionRequests[0]?.body.tools ?? []) as { function: { name: string } }[];
    const names = tools.map((tool) => tool.function.name);
    expect(names.some((name) => name.startsWith("control-"))).toBe(true);
    expect(names.some((name) => name.startsWith("off-"))).toBe(false);

    // Another session of the same client, without the options, has neither.
    const plain = await client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest: approveAll });
    expect((await plain.rpc.mcp.list()).servers).toEqual([]);
    await client.stop();
  });
});

function put(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

const skill = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`;

describe("SDK server-wide discovery", () => {
  it("finds the skills, agents and instruction files of a project and of the user, and where new ones go", async () => {
    const { home, cwd } = sdk.world;
    const project = path.join(cwd, "project");
    const extra = path.join(cwd, "extra-skills");
    put(path.join(project, ".github", "skills", "lint", "SKILL.md"), skill("lint", "Lints the project"));
    put(path.join(extra, "notes", "SKILL.md"), skill("notes", "Takes notes"));
    put(path.join(home, "skills", "mine", "SKILL.md"), skill("mine", "The user's own"));
    put(path.join(project, ".github", "agents", "reviewer.agent.md"), "---\ndescription: Reviews\n---\nReview.\n");
    put(path.join(home, "agents", "helper.agent.md"), "---\ndescription: Helps\n---\nHelp.\n");
    put(path.join(project, "AGENTS.md"), "Use tabs.\n");
    put(path.join(home, "copilot-instructions.md"), "Be brief.\n");
    const client = sdk.world.client();
    await client.start();

    const skills = await client.rpc.skills.discover({ projectPaths: [project], skillDirectories: [extra] });
    const byName = Object.fromEntries(skills.skills.map((found) => [found.name, found]));
    expect(byName.lint).toMatchObject({
      source: "project",
      enabled: true,
      projectPath: project,
      path: path.join(project, ".github", "skills", "lint", "SKILL.md"),
    });
    expect(byName.notes).toMatchObject({ source: "custom", description: "Takes notes", enabled: true });
    expect(byName.mine).toMatchObject({ source: "user" });
    const ownLeftOut = await client.rpc.skills.discover({ projectPaths: [project], excludeHostSkills: true });
    expect(ownLeftOut.skills.map((found) => found.name)).toEqual(["lint"]);

    await client.rpc.skills.config.setDisabledSkills({ disabledSkills: ["lint"] });
    expect(JSON.parse(readFileSync(path.join(home, "settings.json"), "utf8")).disabledSkills).toEqual(["lint"]);
    const afterDisable = await client.rpc.skills.discover({ projectPaths: [project] });
    expect(afterDisable.skills.find((found) => found.name === "lint")?.enabled).toBe(false);
    await client.rpc.skills.config.setDisabledSkills({ disabledSkills: [] });
    expect(JSON.parse(readFileSync(path.join(home, "settings.json"), "utf8")).disabledSkills).toBeUndefined();

    const skillPaths = (await client.rpc.skills.getDiscoveryPaths({ projectPaths: [project] })).paths;
    expect(skillPaths.find((found) => found.preferredForCreation && found.projectPath === project)?.path).toBe(path.join(project, ".github", "skills"));
    expect(skillPaths.find((found) => found.scope === "personal-copilot" && found.preferredForCreation)?.path).toBe(path.join(home, "skills"));

    const agents = (await client.rpc.agents.discover({ projectPaths: [project] })).agents.map((agent) => [agent.name, agent.source]);
    expect(agents).toEqual(
      expect.arrayContaining([
        ["reviewer", "project"],
        ["helper", "user"],
      ]),
    );
    expect((await client.rpc.agents.discover({ projectPaths: [project], excludeHostAgents: true })).agents.map((agent) => agent.name)).toEqual(["reviewer"]);
    const agentPaths = (await client.rpc.agents.getDiscoveryPaths({ projectPaths: [project] })).paths;
    expect(agentPaths).toContainEqual({ path: path.join(project, ".github", "agents"), scope: "project", preferredForCreation: true, projectPath: project });

    const sources = (await client.rpc.instructions.discover({ projectPaths: [project] })).sources;
    expect(sources.map((source) => [source.label, source.location, source.content])).toEqual(
      expect.arrayContaining([
        ["AGENTS.md", "repository", "Use tabs."],
        ["copilot-instructions.md", "user", "Be brief."],
      ]),
    );
    const repoOnly = await client.rpc.instructions.discover({ projectPaths: [project], excludeHostInstructions: true });
    expect(repoOnly.sources.map((source) => source.sourcePath)).toEqual([path.join(project, "AGENTS.md")]);
    const instructionPaths = (await client.rpc.instructions.getDiscoveryPaths({ projectPaths: [project] })).paths;
    expect(instructionPaths).toContainEqual({
      path: path.join(project, ".github", "copilot-instructions.md"),
      location: "repository",
      kind: "file",
      preferredForCreation: true,
      projectPath: project,
    });
    await client.stop();
  });
});

describe("SDK MCP env value mode", () => {
  it("switches how servers started from then on read their env values, and has no GitHub server of its own to remove", async () => {
    sdk.server.enqueue(text("Ready."));
    const { client, session } = await openSession({ mcpServers: { github: miniMcpServer() } });
    await session.sendAndWait({ prompt: "hello" }, 30_000);
    expect(await session.rpc.mcp.setEnvValueMode({ mode: "indirect" })).toEqual({ mode: "indirect" });
    expect(await session.rpc.mcp.setEnvValueMode({ mode: "direct" })).toEqual({ mode: "direct" });
    expect(await session.rpc.mcp.removeGitHub()).toEqual({ removed: false });
    // The client's own server named "github" is not the kind removeGitHub removes: it keeps running.
    expect((await session.rpc.mcp.list()).servers).toEqual([{ name: "github", status: "connected" }]);
    await expect(session.rpc.mcp.setEnvValueMode({ mode: "sideways" as "direct" })).rejects.toThrow();
    await client.stop();
  });
});

describe("SDK live subagent settings", () => {
  const helper = { name: "helper", displayName: "Helper", description: "Helps", prompt: "You help." };
  const other = { name: "other", displayName: "Other", description: "Another", prompt: "You are another." };

  it("starts an agent type with the model and effort a client set, hides a disabled one, and clears them with null", async () => {
    const { client, session } = await openSession({ customAgents: [helper, other] });
    await session.rpc.tools.updateSubagentSettings({
      subagents: { agents: { helper: { model: "helper-model", effortLevel: "low", contextTier: "default" } }, disabledSubagents: ["other"] },
    });
    sdk.server.enqueue(toolCall("task", { agent_type: "helper", description: "help", prompt: "Say hi" }), text("hi from helper"), text("Done."));
    await session.sendAndWait({ prompt: "delegate" }, 30_000);
    const [main, sub] = sdk.server.completionRequests;
    const types = (main?.body.tools as { function: { name: string; parameters?: { properties?: { agent_type?: { enum?: string[] } } } } }[]).find(
      (tool) => tool.function.name === "task",
    )?.function.parameters?.properties?.agent_type?.enum;
    expect(types).toContain("helper");
    expect(types).not.toContain("other");
    expect(sub?.body.model).toBe("helper-model");
    expect(sub?.body.reasoning_effort).toBe("low");

    await expect(session.rpc.tools.updateSubagentSettings({ subagents: { agents: { helper: { effortLevel: "enormous" } } } })).rejects.toThrow(
      /Unknown reasoning effort/,
    );
    await session.rpc.tools.updateSubagentSettings({ subagents: null });
    sdk.server.enqueue(text("Nothing to do."));
    await session.sendAndWait({ prompt: "again" }, 30_000);
    const again = sdk.server.completionRequests.at(-1);
    const typesAgain = (again?.body.tools as { function: { name: string; parameters?: { properties?: { agent_type?: { enum?: string[] } } } } }[]).find(
      (tool) => tool.function.name === "task",
    )?.function.parameters?.properties?.agent_type?.enum;
    expect(typesAgain).toContain("other");
    await client.stop();
  });
});

describe("SDK context attribution", () => {
  it("splits the context window by source and lists the heaviest messages, largest first", async () => {
    writeFileSync(path.join(sdk.world.cwd, "AGENTS.md"), "Always answer in haiku. ".repeat(40));
    const { client, session } = await openSession({ mcpServers: { mini: miniMcpServer() } });
    sdk.server.enqueue(toolCall("mini-echo_text", { text: "echo ".repeat(400) }), text("Short answer."));
    await session.sendAndWait({ prompt: "Echo a long text please." }, 30_000);

    const { contextAttribution } = await session.rpc.metadata.getContextAttribution();
    expect(contextAttribution).toBeTruthy();
    const attribution = contextAttribution!;
    const byId = Object.fromEntries(attribution.entries.map((entry) => [entry.id, entry]));
    expect(byId["system:prompt"]?.tokens).toBeGreaterThan(0);
    expect(byId["system:instructions"]?.tokens).toBeGreaterThanOrEqual(200);
    expect(attribution.categories.customInstructions).toBe(byId["system:instructions"]?.tokens);
    expect(byId["mcpServer:mini"]?.tokens).toBeGreaterThan(0);
    expect(byId["toolDefinition:mini-echo_text"]?.parentId).toBe("mcpServer:mini");
    expect(byId["tool:mini-echo_text"]?.tokens).toBeGreaterThanOrEqual(400);
    expect(byId["message:user"]?.kind).toBe("message");
    expect(attribution.totalTokens).toBeGreaterThan(0);
    expect(attribution.compactions.count).toBe(0);

    const heaviest = await session.rpc.metadata.getContextHeaviestMessages({ limit: 2 });
    expect(heaviest.messages).toHaveLength(2);
    // The long text is both in the model's call and in the tool's result: those two are the heaviest.
    expect(heaviest.messages.map((message) => message.label).sort()).toEqual(["assistant", "tool: mini-echo_text"]);
    expect(heaviest.messages[0]!.tokens).toBeGreaterThanOrEqual(heaviest.messages[1]!.tokens);
    expect(heaviest.totalTokens).toBe(attribution.totalTokens);
    await client.stop();
  });
});

describe("SDK secret filter values", () => {
  it("keeps a registered value out of every session's log and events, while the model still gets it", async () => {
    const client = sdk.world.client();
    await client.start();
    expect(await client.rpc.secrets.addFilterValues({ values: ["tok-SECRET-4242", "ab"] })).toEqual({ ok: true });
    const session = await client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest: approveAll });
    const seen: string[] = [];
    session.on((event) => seen.push(JSON.stringify(event)));
    sdk.server.enqueue(text("I will not repeat tok-SECRET-4242."));
    const answer = await session.sendAndWait({ prompt: "My token is tok-SECRET-4242; ab stays." }, 30_000);
    expect(answer?.data.content).toBe("I will not repeat ******.");
    expect(JSON.stringify(sdk.server.completionRequests[0]?.body.messages)).toContain("tok-SECRET-4242");
    expect(seen.join("\n")).not.toContain("tok-SECRET-4242");
    expect(seen.join("\n")).toContain("My token is ******; ab stays.");
    const log = path.join(sdk.world.home, "session-state", session.sessionId, "events.jsonl");
    expect(readdirSync(path.dirname(log))).toContain("events.jsonl");
    expect(readFileSync(log, "utf8")).not.toContain("tok-SECRET-4242");
    expect(JSON.stringify(await session.getEvents())).not.toContain("tok-SECRET-4242");
    await client.stop();
  });
});

describe("SDK GitHub account methods", () => {
  it("refuses a Copilot quota and GitHub credentials with the reason, and reports the session's own credential", async () => {
    const { client, session } = await openSession();
    await expect(client.rpc.account.getQuota({ gitHubToken: "gho_x" })).rejects.toThrow(/signs in to no GitHub account/);
    await expect(session.rpc.gitHubAuth.setCredentials({ credentials: { type: "user", host: "https://github.com", login: "me" } } as never)).rejects.toThrow(
      /provider's credential/,
    );
    expect(await session.rpc.gitHubAuth.getStatus()).toMatchObject({ isAuthenticated: true, authType: "api-key" });
    await client.stop();
  });
});

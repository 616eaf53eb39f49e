/**
 * MCP servers and custom agents as an SDK application drives them, through the real Copilot SDK and the real
 * bin/agent.js: session.agent.*, session.mcp.list/listTools/isServerRunning/stopServer, the user's
 * mcp-config.json through mcp.config.* and mcp.discover, defaultAgent.excludedTools and excludedBuiltinAgents.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { approveAll, defineTool, type SessionConfig } from "@github/copilot-sdk";
import { z } from "zod";
import { text } from "../support/scripted-server.js";
import { miniMcpServer, nextEvent, useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();

const pirate = { name: "pirate", displayName: "Pirate", description: "Talks like a pirate", prompt: "You are a pirate." };
const quiet = { name: "quiet", displayName: "Quiet", description: "Says little", prompt: "Be quiet.", infer: false };

/** The tool names and the task tool's agent_type choices of the nth model request. */
function offered(n: number): { tools: string[]; agentTypes: unknown } {
  const tools = (sdk.server.completionRequests[n]?.body.tools ?? []) as {
    function: { name: string; parameters?: { properties?: Record<string, { enum?: unknown }> } };
  }[];
  const task = tools.find((tool) => tool.function.name === "task");
  return { tools: tools.map((tool) => tool.function.name), agentTypes: task?.function.parameters?.properties?.agent_type?.enum };
}

/** A new client and a session of the scripted model on it, with `config` besides. */
async function openSession(config: Partial<SessionConfig> = {}) {
  const client = sdk.world.client();
  const session = await client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest: approveAll, ...config });
  return { client, session };
}

describe("SDK custom agents", () => {
  it("lists the client's agents, selects and deselects one, and refuses an unknown name", async () => {
    const { client, session } = await openSession({
      customAgents: [pirate, quiet],
    });
    const listed = await session.rpc.agent.list();
    expect(listed.agents.map((agent) => [agent.name, agent.displayName, agent.description, agent.id])).toEqual([
      ["pirate", "Pirate", "Talks like a pirate", "pirate"],
      ["quiet", "Quiet", "Says little", "quiet"],
    ]);
    expect(listed.agents[0]?.prompt).toBeUndefined();
    expect((await session.rpc.agent.list({ includePrompt: true })).agents[0]?.prompt).toBe("You are a pirate.");
    // The built-ins only when asked for.
    const all = (await session.rpc.agent.list({ includeBuiltInAgents: true })).agents;
    expect(all.length).toBeGreaterThan(2);
    expect(all.find((agent) => agent.source === "builtin")).toBeDefined();

    expect((await session.rpc.agent.getCurrent()).agent).toBeNull();
    const selected = nextEvent(session, "subagent.selected");
    expect((await session.rpc.agent.select({ name: "pirate" })).agent.displayName).toBe("Pirate");
    expect((await selected).data.agentName).toBe("pirate");
    expect((await session.rpc.agent.getCurrent()).agent?.name).toBe("pirate");
    await session.rpc.agent.deselect();
    expect((await session.rpc.agent.getCurrent()).agent).toBeNull();
    await expect(session.rpc.agent.select({ name: "nobody" })).rejects.toThrow(/Unknown agent "nobody"/);
    expect((await session.rpc.agent.reload()).agents.map((agent) => agent.name)).toEqual(["pirate", "quiet"]);
    await client.stop();
  });

  it("offers the model only agents it may infer, leaves out excluded built-ins, and hides defaultAgent.excludedTools", async () => {
    sdk.server.enqueue(text("No."), text("Still no."));
    const secret = defineTool("secret_tool", { description: "A secret", parameters: z.object({ input: z.string() }), handler: () => "SECRET" });
    const { client, session } = await openSession({
      customAgents: [pirate, quiet],
      excludedBuiltinAgents: ["explore"],
      tools: [secret],
      defaultAgent: { excludedTools: ["secret_tool"] },
    });
    await session.sendAndWait({ prompt: "do you have secret_tool?" });
    const first = offered(0);
    expect(first.tools).toContain("task");
    expect(first.tools).not.toContain("secret_tool");
    expect(first.agentTypes).toContain("pirate");
    expect(first.agentTypes).not.toContain("quiet");
    expect(first.agentTypes).not.toContain("explore");
    expect((first.agentTypes as string[]).length).toBeGreaterThan(1);
    // A custom agent is no default agent: the tool is its to use.
    await session.rpc.agent.select({ name: "pirate" });
    await session.sendAndWait({ prompt: "and now?" });
    expect(offered(1).tools).toContain("secret_tool");
    await client.stop();
  });

  it("answers session.history.compact with what the compaction removed", async () => {
    const { client, session } = await openSession();
    const result = await session.rpc.history.compact();
    expect(typeof result.success).toBe("boolean");
    expect(result.tokensRemoved).toBeGreaterThanOrEqual(0);
    expect(result.messagesRemoved).toBeGreaterThanOrEqual(0);
    expect(await session.rpc.history.cancelBackgroundCompaction()).toEqual({ cancelled: false });
    await client.stop();
  });
});

/** A session with the test MCP server, connected: the first prompt waits for servers whose tools are not known yet. */
async function sessionWithMini() {
  sdk.server.enqueue(text("Ready."));
  const opened = await openSession({ mcpServers: { mini: miniMcpServer() } });
  await opened.session.sendAndWait({ prompt: "hello" }, 30_000);
  return opened;
}

describe("SDK MCP servers", () => {
  it("lists a session's servers and their tools, says which run, and stops one", async () => {
    const { client, session } = await sessionWithMini();
    expect((await session.rpc.mcp.list()).servers).toEqual([{ name: "mini", status: "connected" }]);
    const tools = (await session.rpc.mcp.listTools({ serverName: "mini" })).tools;
    expect(tools.find((tool) => tool.name === "echo_text")?.description).toBe("Echoes the text back");
    expect((await session.rpc.mcp.isServerRunning({ serverName: "mini" })).running).toBe(true);
    expect((await session.rpc.mcp.isServerRunning({ serverName: "absent" })).running).toBe(false);
    await expect(session.rpc.mcp.listTools({ serverName: "absent" })).rejects.toThrow(/not connected/);

    const stopped = nextEvent(session, "session.mcp_server_status_changed", (event) => event.data.status === "stopped");
    await session.rpc.mcp.stopServer({ serverName: "mini" });
    expect((await stopped).data.serverName).toBe("mini");
    expect((await session.rpc.mcp.isServerRunning({ serverName: "mini" })).running).toBe(false);
    expect((await session.rpc.mcp.list()).servers).toEqual([{ name: "mini", status: "stopped" }]);
    await expect(session.rpc.mcp.listTools({ serverName: "mini" })).rejects.toThrow(/not connected/);
    await expect(session.rpc.mcp.stopServer({ serverName: "absent" })).rejects.toThrow(/no MCP server named absent/);
    await client.stop();
  });

  it("applies the configuration a client's resume of its own idle session brings (servers, agents)", async () => {
    sdk.server.enqueue(text("Ready."));
    const { client, session } = await openSession();
    expect((await session.rpc.mcp.list()).servers).toEqual([]);
    const resumed = await client.resumeSession(session.sessionId, {
      provider: sdk.provider(),
      model: "scripted-model",
      onPermissionRequest: approveAll,
      mcpServers: { mini: miniMcpServer() },
      customAgents: [pirate],
    });
    await resumed.sendAndWait({ prompt: "hello" }, 30_000);
    expect((await resumed.rpc.mcp.list()).servers).toEqual([{ name: "mini", status: "connected" }]);
    expect((await resumed.rpc.agent.list()).agents.map((agent) => agent.name)).toEqual(["pirate"]);
    await client.stop();
  });

  it("refuses what it does not offer (OAuth sign-in, sampling for a client, MCP Apps) with the reason", async () => {
    const { client, session } = await sessionWithMini();
    await expect(session.rpc.mcp.oauth.login({ serverName: "absent" })).rejects.toThrow(/absent is not configured/);
    await expect(session.rpc.mcp.oauth.login({ serverName: "mini" })).rejects.toThrow(/mini is not a remote server/);
    const sampling = await session.rpc.mcp.executeSampling({ requestId: "r1", serverName: "mini", mcpRequestId: "m1", request: {} });
    expect(sampling).toMatchObject({ action: "failure", error: expect.stringMatching(/sampling/) });
    expect(await session.rpc.mcp.cancelSamplingExecution({ requestId: "r1" })).toEqual({ cancelled: false });
    const diagnosis = await session.rpc.mcp.apps.diagnose({ serverName: "mini" });
    expect(diagnosis.capability.advertised).toBe(false);
    expect(diagnosis.server).toMatchObject({ connected: true, toolsWithUiMeta: 0, sampleToolNames: [] });
    expect(diagnosis.server.toolCount).toBeGreaterThan(0);
    await expect(session.rpc.mcp.apps.readResource({ serverName: "mini", uri: "ui://x" })).rejects.toThrow(/mcp-apps/);
    await expect(session.rpc.mcp.apps.callTool({ serverName: "mini", originServerName: "mini", toolName: "echo_text", arguments: {} })).rejects.toThrow(
      /mcp-apps/,
    );
    await client.stop();

    // Without any MCP server the session has no host to sign in through.
    const { client: bare, session: plain } = await openSession();
    await expect(plain.rpc.mcp.oauth.login({ serverName: "absent" })).rejects.toThrow(/MCP host is not available/);
    expect((await plain.rpc.mcp.list()).servers).toEqual([]);
    await bare.stop();
  });

  it("edits the user's mcp-config.json through mcp.config.* and lists it in mcp.discover", async () => {
    const client = sdk.world.client();
    await client.start();
    const file = path.join(sdk.world.home, "mcp-config.json");
    const config = { type: "local" as const, command: "node", args: ["server.js"], env: { TOKEN: "t" } };
    expect((await client.rpc.mcp.config.list()).servers).toEqual({});
    await client.rpc.mcp.config.add({ name: "tools", config });
    expect((await client.rpc.mcp.config.list()).servers).toEqual({ tools: config });
    await expect(client.rpc.mcp.config.add({ name: "tools", config })).rejects.toThrow(/already in/);

    const remote = { type: "http" as const, url: "https://example.com/mcp", headers: { Authorization: "Bearer x" }, oauthClientId: "id" };
    await client.rpc.mcp.config.update({ name: "tools", config: remote });
    expect(JSON.parse(readFileSync(file, "utf8")).mcpServers.tools).toEqual(remote);
    await client.rpc.mcp.config.disable({ names: ["tools"] });
    expect((await client.rpc.mcp.discover({ workingDirectory: sdk.world.cwd })).servers).toEqual([
      { name: "tools", type: "http", source: "user", enabled: false },
    ]);
    await client.rpc.mcp.config.enable({ names: ["tools"] });
    expect((await client.rpc.mcp.config.list()).servers.tools).toEqual(remote);
    await client.rpc.mcp.config.reload();

    // A bad entry or an unknown name is refused with the reason, and the file keeps what it had.
    await expect(client.rpc.mcp.config.add({ name: "broken", config: { type: "local" } as never })).rejects.toThrow(/needs a "command"/);
    await expect(client.rpc.mcp.config.remove({ name: "absent" })).rejects.toThrow(/no MCP server named absent/);
    await expect(client.rpc.mcp.config.enable({ names: ["absent"] })).rejects.toThrow(/no MCP server named absent/);
    expect(Object.keys(JSON.parse(readFileSync(file, "utf8")).mcpServers)).toEqual(["tools"]);

    await client.rpc.mcp.config.remove({ name: "tools" });
    expect((await client.rpc.mcp.config.list()).servers).toEqual({});
    expect(existsSync(file)).toBe(true);
    await client.stop();
  });
});

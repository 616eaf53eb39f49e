/**
 * Session options and server methods an SDK application uses beside the conversation, through the real
 * Copilot SDK and the real bin/agent.js: a session's own plugin folders and disabled MCP servers.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { approveAll, type SessionConfig } from "@github/copilot-sdk";
import { text } from "../support/scripted-server.js";
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

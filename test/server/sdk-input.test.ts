/**
 * What an SDK application sends is a command like every face's, through the real Copilot SDK and the real
 * bin/agent.js: its text is routed as input (`@file` attaches the file, a known `/command` runs and its end
 * is a session.idle, so sendAndWait returns; `/<skill> args` loads the skill before the line; an unknown `/x`
 * or `!x` reaches the model as written), and its session.mcp.* calls are /mcp's commands, told by the same events.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { approveAll } from "@github/copilot-sdk";
import { text, toolCall } from "../support/scripted-server.js";
import { miniMcpServer, nextEvent, recordEvents, useSdkWorld } from "../support/sdk-client.js";

const sdk = useSdkWorld();

const SUMMARY = "<overview>Read the notes.</overview>\n<next_steps>None</next_steps>\n<checkpoint_title>Notes</checkpoint_title>";
const lastUserText = (index: number) => JSON.stringify(sdk.server.completionRequests[index]?.body.messages.filter((message) => message.role === "user").at(-1));

describe("an SDK application's input", () => {
  it("attaches @file mentions and runs known slash commands, each ending with session.idle", async () => {
    writeFileSync(path.join(sdk.world.cwd, "notes.txt"), "NOTES-MARKER-3\n");
    sdk.server.enqueue(toolCall("view", { path: path.join(sdk.world.cwd, "notes.txt") }), text("The notes hold a marker."), text(SUMMARY));
    const client = sdk.world.client();
    const session = await client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest: approveAll });
    const seen = recordEvents(session);

    expect((await session.sendAndWait({ prompt: "what does @notes.txt say?" }))?.data.content).toBe("The notes hold a marker.");
    expect(lastUserText(0)).toContain("NOTES-MARKER-3");

    // /compact runs the compaction (a summary request), not a turn with "/compact" as its text.
    await session.sendAndWait({ prompt: "/compact" });
    expect(sdk.server.completionRequests).toHaveLength(3);
    expect(sdk.server.completionRequests[2]?.body.tool_choice).toBe("none");
    expect(seen.map((event) => event.type)).toEqual(expect.arrayContaining(["session.compaction_start", "session.compaction_complete"]));

    // A command that only changes the session, and one that needs the terminal: each still ends the send.
    await session.sendAndWait({ prompt: "/rename Marker notes" });
    expect(seen.find((event) => event.type === "session.title_changed")).toMatchObject({ data: { title: "Marker notes" } });
    await session.sendAndWait({ prompt: "/resume" });
    expect(seen.filter((event) => event.type === "session.warning").map((event) => (event.data as { message: string }).message)).toContain(
      "/resume needs the terminal UI (run agent in a terminal).",
    );
    expect(sdk.server.completionRequests).toHaveLength(3);
    await client.stop();
  });

  it("runs /<skill> args as a person's line does: the skill's context, then the line as typed, told by skill.invoked", async () => {
    const folder = path.join(sdk.world.home, "skills", "tidy");
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, "SKILL.md"), "---\nname: tidy\ndescription: Tidy a folder.\nargument-hint: <folder>\n---\nTIDY-BODY-MARKER\n");
    sdk.server.enqueue(text("Tidied."));
    const client = sdk.world.client();
    const session = await client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest: approveAll });
    const seen = recordEvents(session);
    expect((await session.sendAndWait({ prompt: "/tidy src" }))?.data.content).toBe("Tidied.");
    const users = sdk.server.completionRequests[0]?.body.messages.filter((message) => message.role === "user").map((message) => String(message.content));
    expect(users).toEqual([
      `<skill-context name="tidy">\nBase directory for this skill: ${folder}\n\nTIDY-BODY-MARKER\n\n</skill-context>`,
      expect.stringMatching(/\/tidy src$/),
    ]);
    expect(seen.find((event) => event.type === "skill.invoked")?.data).toMatchObject({ name: "tidy", path: path.join(folder, "SKILL.md") });
    await client.stop();
  });

  it("sends an unknown /x and a !x to the model as written", async () => {
    sdk.server.enqueue(text("No such command here."), text("Not a shell."));
    const client = sdk.world.client();
    const session = await client.createSession({ provider: sdk.provider(), model: "scripted-model", onPermissionRequest: approveAll });
    const seen = recordEvents(session);
    expect((await session.sendAndWait({ prompt: "/deploy-the-thing now" }))?.data.content).toBe("No such command here.");
    expect(lastUserText(0)).toContain("/deploy-the-thing now");
    expect((await session.sendAndWait({ prompt: "!rm -rf nothing" }))?.data.content).toBe("Not a shell.");
    expect(lastUserText(1)).toContain("!rm -rf nothing");
    expect(seen.some((event) => event.type === "session.warning")).toBe(false);
    expect(seen.some((event) => event.type === "tool.execution_start")).toBe(false);
    await client.stop();
  });
});

describe("an SDK application's MCP calls", () => {
  it("disable, enable and reload the session's servers, told by session.mcp_server_status_changed and session.mcp_servers_loaded", async () => {
    const client = sdk.world.client();
    const session = await client.createSession({
      provider: sdk.provider(),
      model: "scripted-model",
      onPermissionRequest: approveAll,
      mcpServers: {
        mini: miniMcpServer(),
      },
    });
    const disabled = nextEvent(session, "session.mcp_server_status_changed", (event) => event.data.status === "disabled");
    expect(await session.rpc.mcp.disable({ serverName: "mini" })).toBeNull();
    expect((await disabled).data.serverName).toBe("mini");
    const connected = nextEvent(session, "session.mcp_server_status_changed", (event) => event.data.status === "connected");
    await session.rpc.mcp.enable({ serverName: "mini" });
    expect((await connected).data.serverName).toBe("mini");
    const loaded = nextEvent(session, "session.mcp_servers_loaded");
    await session.rpc.mcp.reload();
    expect((await loaded).data.servers.map((server) => server.name)).toEqual(["mini"]);
    await expect(session.rpc.mcp.disable({ serverName: "nope" })).rejects.toThrow(/no MCP server named nope/);
    await client.stop();
  });
});

/** `agent --acp` driven by the ACP library's client side: the real bin/agent.js against the scripted model. */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { PROTOCOL_VERSION, type ClientCapabilities, type SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { choose, type AcpClientHandlers, type AcpTestClient } from "../support/acp-client.js";
import { text, toolCall } from "../support/scripted-server.js";
import { useAcpWorkspace } from "../support/acp-workspace.js";

const acp = useAcpWorkspace();
const { ws } = acp;
const connect = (handlers: AcpClientHandlers = {}, capabilities: ClientCapabilities = {}) => acp.connect({ handlers, capabilities });

async function newSession(client: AcpTestClient): Promise<string> {
  return (await client.agent.request("session/new", { cwd: ws.cwd, mcpServers: [] })).sessionId;
}

const ofKind = <K extends SessionUpdate["sessionUpdate"]>(updates: SessionUpdate[], kind: K) =>
  updates.filter((update): update is Extract<SessionUpdate, { sessionUpdate: K }> => update.sessionUpdate === kind);

describe("agent --acp", () => {
  it("initialize advertises load session, MCP over http/sse, image and embedded-context prompts, list and close", async () => {
    const client = acp.start();
    const response = await client.agent.request("initialize", { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
    expect(response.protocolVersion).toBe(1);
    expect(response.agentCapabilities).toMatchObject({
      loadSession: true,
      promptCapabilities: { image: true, embeddedContext: true },
      mcpCapabilities: { http: true, sse: true },
      sessionCapabilities: { list: {}, close: {} },
    });
    expect(response.agentInfo?.name).toBe("agent");
  });

  it("a prompt streams the answer as message chunks and ends the turn", async () => {
    const client = await connect();
    const { sessionId, modes } = await client.agent.request("session/new", { cwd: ws.cwd, mcpServers: [] });
    expect(modes?.currentModeId).toBe("interactive");
    ws.server.enqueue(text("Hello from the scripted model.", { chunkSize: 6, reasoning: "Thinking it over." }));
    const response = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Say hello" }] });
    expect(response.stopReason).toBe("end_turn");
    const chunks = ofKind(client.updates(sessionId), "agent_message_chunk");
    expect(chunks.length).toBeGreaterThan(1);
    expect(client.agentText(sessionId)).toBe("Hello from the scripted model.");
    const thought = ofKind(client.updates(sessionId), "agent_thought_chunk").map((update) => (update.content.type === "text" ? update.content.text : ""));
    expect(thought.join("")).toBe("Thinking it over.");
    const user = ws.server.completionRequests[0]?.body.messages.filter((message) => message.role === "user").at(-1);
    expect(String(user?.content)).toContain("Say hello");
  });

  it("offers the slash commands, and a prompt that is one runs it (/plan switches the mode)", async () => {
    const client = await connect();
    const sessionId = await newSession(client);
    const offered = await client.waitForUpdate((update) => update.sessionUpdate === "available_commands_update");
    // Sent after the answer to session/new, so the client knows the session it is about.
    const answered = client.incoming.findIndex((message) => "result" in message && (message.result as { sessionId?: string })?.sessionId === sessionId);
    const firstUpdate = client.incoming.findIndex((message) => "method" in message && message.method === "session/update");
    expect(answered).toBeGreaterThanOrEqual(0);
    expect(firstUpdate).toBeGreaterThan(answered);
    const names = offered.sessionUpdate === "available_commands_update" ? offered.availableCommands.map((command) => command.name) : [];
    expect(names).toEqual(expect.arrayContaining(["plan", "autopilot", "allow-all"]));
    expect(names).not.toContain("exit");
    const response = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/plan" }] });
    expect(response.stopReason).toBe("end_turn");
    expect(ofKind(client.updates(sessionId), "current_mode_update").map((update) => update.currentModeId)).toEqual(["plan"]);
    expect(client.agentText(sessionId)).toContain("Plan mode");
    expect(ws.server.completionRequests).toHaveLength(0);
  });

  it("the model is a config option: the endpoint's models follow, and choosing one switches the session's model", async () => {
    await ws.replaceServer({ models: ["scripted-model", "bigger-model"] });
    const client = await connect();
    const created = await client.agent.request("session/new", { cwd: ws.cwd, mcpServers: [] });
    expect(created.configOptions?.[0]).toMatchObject({ id: "model", category: "model", currentValue: "scripted-model" });
    const listed = await client.waitForUpdate((update) => update.sessionUpdate === "config_option_update");
    const values = listed.sessionUpdate === "config_option_update" && listed.configOptions[0]?.type === "select" ? listed.configOptions[0].options : [];
    expect(values.map((option) => ("value" in option ? option.value : "")).sort()).toEqual(["bigger-model", "scripted-model"]);
    const changed = await client.agent.request("session/set_config_option", { sessionId: created.sessionId, configId: "model", value: "bigger-model" });
    expect(changed.configOptions[0]).toMatchObject({ currentValue: "bigger-model" });
    ws.server.enqueue(text("From the bigger model."));
    await client.agent.request("session/prompt", { sessionId: created.sessionId, prompt: [{ type: "text", text: "hi" }] });
    expect(ws.server.completionRequests.at(-1)?.body.model).toBe("bigger-model");
  });

  it("a tool call asks permission through session/request_permission; approved, it runs", async () => {
    const client = await connect({ permission: choose("allow-once") });
    const sessionId = await newSession(client);
    ws.server.enqueue(toolCall("bash", { command: "touch approved-marker", description: "Make a marker" }), text("Made it."));
    const response = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "make a marker" }] });
    expect(response.stopReason).toBe("end_turn");
    expect(existsSync(path.join(ws.cwd, "approved-marker"))).toBe(true);
    const [asked] = client.permissionRequests;
    expect(asked?.options.map((option) => option.kind)).toEqual(expect.arrayContaining(["allow_once", "allow_always", "reject_once"]));
    const updates = client.updates(sessionId);
    const call = ofKind(updates, "tool_call")[0];
    expect(call).toMatchObject({ title: "Make a marker", kind: "execute", status: "pending" });
    expect(asked?.toolCall.toolCallId).toBe(call?.toolCallId);
    // Announced before the question, so the editor can show what it is asked about.
    const statuses = ofKind(updates, "tool_call_update")
      .filter((update) => update.toolCallId === call?.toolCallId)
      .map((update) => update.status);
    expect(statuses).toEqual(["in_progress", "completed"]);
    expect(client.agentText(sessionId)).toBe("Made it.");
  });

  it("offers the engine's answers, labels and all; 'for this session' lets the same command run again without asking", async () => {
    const client = await connect({ permission: choose("allow-session") });
    const sessionId = await newSession(client);
    ws.server.enqueue(
      toolCall("bash", { command: "touch session-one", description: "First marker" }),
      toolCall("bash", { command: "touch session-two", description: "Second marker" }),
      text("Made both."),
    );
    await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "make two markers" }] });
    expect(client.permissionRequests).toHaveLength(1);
    expect(client.permissionRequests[0]?.options.map((option) => [option.optionId, option.kind, option.name])).toEqual([
      ["allow-once", "allow_once", "Yes"],
      ["allow-session", "allow_always", "Yes, and don't ask again this session for `touch`"],
      ["allow-always", "allow_always", "Yes, and always allow `touch` in this directory"],
      ["reject", "reject_once", "No"],
    ]);
    expect(["session-one", "session-two"].filter((name) => existsSync(path.join(ws.cwd, name)))).toHaveLength(2);
  });

  it("rejected, the tool does not run and the call is reported failed", async () => {
    const client = await connect({ permission: choose("reject") });
    const sessionId = await newSession(client);
    ws.server.enqueue(toolCall("bash", { command: "touch rejected-marker", description: "Make a marker" }), text("I was not allowed."));
    const response = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "make a marker" }] });
    expect(response.stopReason).toBe("end_turn");
    expect(existsSync(path.join(ws.cwd, "rejected-marker"))).toBe(false);
    expect(client.permissionRequests).toHaveLength(1);
    expect(ofKind(client.updates(sessionId), "tool_call_update").at(-1)?.status).toBe("failed");
  });

  it("an edit is shown as a diff with its location", async () => {
    const client = await connect({ permission: choose("allow-once") });
    const sessionId = await newSession(client);
    const file = path.join(ws.cwd, "notes.txt");
    ws.server.enqueue(toolCall("create", { path: file, file_text: "first line\n" }), text("Created."));
    await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "write notes" }] });
    expect(readFileSync(file, "utf8")).toBe("first line\n");
    const call = ofKind(client.updates(sessionId), "tool_call")[0];
    expect(call).toMatchObject({ kind: "edit", locations: [{ path: file }], content: [{ type: "diff", path: file, oldText: null, newText: "first line\n" }] });
  });

  it("cancel during a slow stream ends the prompt as cancelled, and the next prompt works", async () => {
    const client = await connect();
    const sessionId = await newSession(client);
    ws.server.enqueue(text("This answer never finishes because the stream stalls.", { chunkSize: 4, hangAfterChunks: 3 }));
    const prompt = client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "talk slowly" }] });
    await ws.server.waitForHang();
    await client.waitForUpdate((update) => update.sessionUpdate === "agent_message_chunk");
    await client.agent.notify("session/cancel", { sessionId });
    expect((await prompt).stopReason).toBe("cancelled");

    ws.server.enqueue(text("Back again."));
    const next = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "again" }] });
    expect(next.stopReason).toBe("end_turn");
    expect(client.agentText(sessionId)).toMatch(/Back again\.$/);
  });

  it("session/load in a new process replays the conversation; session/list names it", async () => {
    const first = await connect({ permission: choose("allow-once") });
    const sessionId = await newSession(first);
    ws.server.enqueue(toolCall("bash", { command: "echo listed", description: "Echo a word" }), text("The first answer."));
    await first.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "the first question" }] });
    await first.close();

    const second = await connect();
    const { sessions } = await second.agent.request("session/list", { cwd: ws.cwd });
    expect(sessions.map((session) => session.sessionId)).toContain(sessionId);
    await second.agent.request("session/load", { sessionId, cwd: ws.cwd, mcpServers: [] });
    const replayed = second.updates(sessionId);
    const kinds = replayed.map((update) => update.sessionUpdate);
    expect(kinds.indexOf("user_message_chunk")).toBeLessThan(kinds.indexOf("tool_call"));
    expect(kinds.indexOf("tool_call")).toBeLessThan(kinds.indexOf("agent_message_chunk"));
    expect(ofKind(replayed, "user_message_chunk")[0]?.content).toEqual({ type: "text", text: "the first question" });
    expect(ofKind(replayed, "tool_call_update").at(-1)?.status).toBe("completed");
    expect(second.agentText(sessionId)).toBe("The first answer.");

    // The conversation goes on where it was: the model sees the earlier exchange.
    ws.server.enqueue(text("The second answer."));
    await second.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "and then?" }] });
    const messages = ws.server.completionRequests.at(-1)?.body.messages ?? [];
    expect(messages.some((message) => message.role === "assistant" && String(message.content).includes("The first answer."))).toBe(true);
  });

  it("session/resume goes on without a replay; session/delete removes the session", async () => {
    const first = await connect();
    const sessionId = await newSession(first);
    ws.server.enqueue(text("Remember the word tulip."));
    await first.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "a word" }] });
    await first.close();

    const second = await connect();
    await second.agent.request("session/resume", { sessionId, cwd: ws.cwd, mcpServers: [] });
    const conversation = ["user_message_chunk", "agent_message_chunk", "agent_thought_chunk", "tool_call", "tool_call_update"];
    expect(second.updates(sessionId).filter((update) => conversation.includes(update.sessionUpdate))).toEqual([]);
    ws.server.enqueue(text("It was tulip."));
    await second.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "which word?" }] });
    expect(second.agentText(sessionId)).toBe("It was tulip.");
    const messages = ws.server.completionRequests.at(-1)?.body.messages ?? [];
    expect(messages.some((message) => message.role === "assistant" && String(message.content).includes("tulip"))).toBe(true);

    await second.agent.request("session/delete", { sessionId });
    const { sessions } = await second.agent.request("session/list", {});
    expect(sessions.map((session) => session.sessionId)).not.toContain(sessionId);
  });

  it("uses the client's file system and terminal when it offers them", async () => {
    const buffers = new Map<string, string>([[path.join(ws.cwd, "open.txt"), "unsaved editor text\n"]]);
    const commands: string[][] = [];
    const client = await connect(
      {
        permission: choose("allow-once"),
        readTextFile: (request) => buffers.get(request.path) ?? "",
        writeTextFile: (request) => void buffers.set(request.path, request.content),
        terminal: (request) => {
          commands.push([request.command, ...(request.args ?? [])]);
          return { output: "printed in the editor's terminal\n", exitCode: 0 };
        },
      },
      { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
    );
    const sessionId = await newSession(client);
    const onDisk = path.join(ws.cwd, "open.txt");
    await import("node:fs/promises").then((fs) => fs.writeFile(onDisk, "saved text\n"));
    ws.server.enqueue(
      toolCall("view", { path: onDisk }),
      toolCall("create", { path: path.join(ws.cwd, "made.txt"), file_text: "made by the agent\n" }),
      toolCall("bash", { command: "echo hi", description: "Say hi" }),
      text("All done."),
    );
    const response = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "use the editor" }] });
    expect(response.stopReason).toBe("end_turn");
    const toolResults = ws.server.completionRequests
      .slice(1)
      .map((request) => request.body.messages.filter((message) => message.role === "tool").at(-1)?.content)
      .map(String);
    expect(toolResults[0]).toContain("1. unsaved editor text");
    expect(buffers.get(path.join(ws.cwd, "made.txt"))).toBe("made by the agent\n");
    expect(existsSync(path.join(ws.cwd, "made.txt"))).toBe(false);
    expect(commands).toEqual([["bash", "-c", "echo hi"]]);
    expect(toolResults[2]).toContain("printed in the editor's terminal");
    // The editor shows the terminal in the call, and still does once the result is in.
    const bashUpdates = ofKind(client.updates(sessionId), "tool_call_update").filter((update) =>
      update.content?.some((content) => content.type === "terminal" && content.terminalId === "term-1"),
    );
    expect(bashUpdates.map((update) => update.status ?? "running")).toEqual(["running", "completed"]);
  });
});

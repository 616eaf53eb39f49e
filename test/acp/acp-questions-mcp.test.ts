/**
 * `agent --acp`: a client's MCP servers join the session; a cancel while a permission question is open; plan
 * mode and its review asked as a permission to switch mode; a client that goes away; ask_user as a form.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { SERVER_SCRIPT } from "../mcp/mcp-support.js";
import { choose, type AcpClientHandlers } from "../support/acp-client.js";
import { text, toolCall } from "../support/scripted-server.js";
import { useAcpWorkspace } from "../support/acp-workspace.js";

const acp = useAcpWorkspace();
const { ws } = acp;
const connect = (handlers: AcpClientHandlers, extra: Record<string, string> = {}) => acp.connect({ handlers, extra });

describe("agent --acp", () => {
  it("an MCP server named in session/new is started for the session and its tool is called", async () => {
    const log = path.join(ws.home, "mcp-calls.jsonl");
    const client = await connect({ permission: choose("allow-once") }, { MCP_TEST_LOG: log });
    // The first prompt waits for the server however slow the machine (it goes on as soon as the server is up).
    // tsx by absolute path: the server is started in the session's directory, which has no node_modules.
    const loader = path.resolve("node_modules/tsx/dist/loader.mjs");
    const { sessionId } = await client.agent.request("session/new", {
      cwd: ws.cwd,
      mcpServers: [{ name: "mini", command: process.execPath, args: ["--import", loader, SERVER_SCRIPT, "--stdio"], env: [] }],
    });
    ws.server.enqueue(toolCall("mini-echo_text", { text: "from the editor" }), text("The server echoed."));
    const response = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "echo it" }] });
    expect(response.stopReason).toBe("end_turn");
    expect(ws.server.completionRequests[0]?.body.tools?.some((tool) => (tool as { function: { name: string } }).function.name === "mini-echo_text")).toBe(true);
    expect(readFileSync(log, "utf8")).toContain('"text":"from the editor"');
    const toolMessage = ws.server.completionRequests[1]?.body.messages.find((message) => message.role === "tool");
    expect(String(toolMessage?.content)).toContain("echo: from the editor");
  });

  it("cancel while a permission question is open: the prompt ends cancelled, the tool never runs, the late answer is ignored", async () => {
    let answer: (optionId: string) => void = () => undefined;
    let markAsked: () => void = () => undefined;
    let markWithdrawn: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (markAsked = resolve));
    const withdrawn = new Promise<void>((resolve) => (markWithdrawn = resolve));
    const client = await connect({
      permission: (_request, signal) => {
        markAsked();
        signal.addEventListener("abort", () => markWithdrawn(), { once: true });
        return new Promise((resolve) => (answer = (optionId) => resolve({ outcome: { outcome: "selected", optionId } })));
      },
    });
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.cwd, mcpServers: [] });
    ws.server.enqueue(toolCall("bash", { command: "touch never-marker", description: "Make a marker" }));
    const prompt = client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "make a marker" }] });
    await asked;
    await client.agent.notify("session/cancel", { sessionId });
    expect((await prompt).stopReason).toBe("cancelled");
    // The agent withdraws the question it no longer waits for; an answer given anyway changes nothing.
    await withdrawn;
    answer("allow-once");
    ws.server.enqueue(text("Still here."));
    expect((await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello?" }] })).stopReason).toBe("end_turn");
    expect(client.agentText(sessionId)).toBe("Still here.");
    expect(existsSync(path.join(ws.cwd, "never-marker"))).toBe(false);
  });

  it("plan mode: the plan review is a permission request; accepting it switches back and implements", async () => {
    const client = await connect({ permission: choose("plan:interactive") });
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.cwd, mcpServers: [] });
    await client.agent.request("session/set_mode", { sessionId, modeId: "plan" });
    await client.waitForUpdate((update) => update.sessionUpdate === "current_mode_update" && update.currentModeId === "plan");
    const session = path.join(ws.home, "session-state", sessionId);
    ws.server.enqueue(
      toolCall("create", { path: path.join(session, "plan.md"), file_text: "# Plan\n1. Say hi\n" }),
      toolCall("exit_plan_mode", { summary: "Say hi" }),
      text("Implementing now."),
    );
    const response = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "plan a greeting" }] });
    expect(response.stopReason).toBe("end_turn");
    const review = client.permissionRequests.find((request) => request.toolCall.kind === "switch_mode");
    // The recommended way first, then the others, and "keep planning".
    expect(review?.options.map((option) => option.optionId)).toEqual(["plan:autopilot", "plan:interactive", "plan:exit_only", "keep-planning"]);
    expect(review?.toolCall.content).toEqual([{ type: "content", content: { type: "text", text: "# Plan\n1. Say hi\n" } }]);
    await client.waitForUpdate((update) => update.sessionUpdate === "current_mode_update" && update.currentModeId === "interactive");
    expect(client.agentText(sessionId)).toBe("Implementing now.");
  });

  it("a client that goes away mid-turn: the turn ends, the log is closed, the process exits", async () => {
    const client = await connect({});
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.cwd, mcpServers: [] });
    ws.server.enqueue(text("This stream stalls.", { chunkSize: 4, hangAfterChunks: 2 }));
    void client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "talk" }] }).catch(() => undefined);
    await ws.server.waitForHang();
    const exited = new Promise<number | null>((resolve) => client.child.once("exit", (code) => resolve(code)));
    client.child.stdin?.end();
    expect(await exited).toBe(0);
    const log = readFileSync(path.join(ws.home, "session-state", sessionId, "events.jsonl"), "utf8")
      .trim()
      .split("\n");
    expect(JSON.parse(log.at(-1) ?? "{}").type).toBe("session.shutdown");
    expect(existsSync(path.join(ws.home, "session-state", sessionId, "session.lock"))).toBe(false);
  });

  it("ask_user is a form the editor fills in (elicitation/create) when it renders forms", async () => {
    const asked: unknown[] = [];
    const client = acp.start({
      handlers: {
        elicitation: (request) => {
          asked.push(request);
          return { action: "accept", content: { color: "blue" } };
        },
      },
    });
    await client.agent.request("initialize", { protocolVersion: PROTOCOL_VERSION, clientCapabilities: { elicitation: { form: {} } } });
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.cwd, mcpServers: [] });
    const form = { message: "Which colour?", requestedSchema: { type: "object", properties: { color: { type: "string", enum: ["red", "blue"] } } } };
    ws.server.enqueue(toolCall("ask_user", form), text("Blue it is."));
    const response = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "paint it" }] });
    expect(response.stopReason).toBe("end_turn");
    expect(asked).toMatchObject([{ mode: "form", sessionId, message: "Which colour?", requestedSchema: form.requestedSchema }]);
    const toolMessage = ws.server.completionRequests[1]?.body.messages.find((message) => message.role === "tool");
    expect(String(toolMessage?.content)).toContain('"color": "blue"');
  });
});

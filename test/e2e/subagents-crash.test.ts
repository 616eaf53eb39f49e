/**
 * The real bin/agent killed with SIGKILL while a background agent runs, then resumed: the agent is marked
 * failed (interrupted) in the log and for read_agent, and the conversation sent to the model is valid (the
 * task call that started it has its result).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { collect, runAgent, startAgent } from "../support/run-agent.js";
import { hang, text, toolCall } from "../support/scripted-server.js";
import { useAgentQueues, useE2eWorkspace } from "../support/e2e-workspace.js";

const { main, child, responder } = useAgentQueues();
const ws = useE2eWorkspace({ prefix: "crash-agents", server: { responder } });

const logOf = (id: string) =>
  readFileSync(path.join(ws.home, "session-state", id, "events.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; agentId?: string; data: Record<string, unknown> });

describe("a real agent killed with a background agent running", () => {
  it("on resume the agent is failed (interrupted), read_agent says so, and the history is valid", async () => {
    main.push(
      toolCall("task", { description: "long check", prompt: "Check everything.", agent_type: "explore", name: "bg", mode: "background" }),
      text("Started it."),
    );
    child.push(hang());
    const agent = startAgent(["-p", "check in the background", "--allow-all-tools"], { env: ws.env(), cwd: ws.cwd });
    const done = collect(agent);
    // The main agent's two calls and the background agent's one: -p now waits for the agent.
    await ws.server.waitForRequests(3);
    agent.kill("SIGKILL");
    expect((await done).signal).toBe("SIGKILL");
    const [id] = readdirSync(path.join(ws.home, "session-state")) as [string];
    expect(logOf(id).some((event) => event.type === "subagent.failed")).toBe(false);

    main.push(toolCall("read_agent", { agent_id: "bg-1", timeout_seconds: 0 }, { id: "call_read" }), text("It was interrupted."));
    const resumed = await runAgent(["--resume", id, "-p", "what happened to bg-1?", "--allow-all-tools"], { env: ws.env(), cwd: ws.cwd });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe("It was interrupted.\n");

    const log = logOf(id);
    const failed = log.filter((event) => event.type === "subagent.failed");
    expect(failed.map((event) => event.data.error)).toEqual(["interrupted: the session ended while the agent was running"]);
    const read = log.find((event) => event.type === "tool.execution_complete" && event.data.toolCallId === "call_read");
    expect(JSON.stringify(read?.data)).toMatch(/bg-1 · explore · failed.*Error: interrupted: the session ended while the agent was running/);

    // The first request after the resume: every tool call of the main agent has its result.
    const request = ws.server.completionRequests.filter((candidate) => candidate.headers["x-initiator"] !== "sub-agent").at(-2);
    const messages = (request?.body.messages ?? []) as { role: string; tool_call_id?: string; tool_calls?: { id: string }[]; content?: unknown }[];
    const asked = messages.flatMap((message) => message.tool_calls?.map((call) => call.id) ?? []);
    const answered = messages.filter((message) => message.role === "tool").map((message) => message.tool_call_id);
    expect(asked.length).toBeGreaterThan(0);
    expect(answered).toEqual(asked);
    expect(JSON.stringify(messages)).toContain("Agent started in background with agent_id: bg-1");
  });
});

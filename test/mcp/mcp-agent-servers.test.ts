/**
 * A custom agent's own MCP servers (`mcp-servers` in its file): started when that agent runs, its tools offered
 * to it alone (not to the main agent, not to other agents), stopped with it.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { AgentDefinition, AgentDirectory } from "../../src/core/tasks/agent-directory.js";
import { startHarness, type Harness } from "../support/engine-harness.js";
import { text, toolCall } from "../support/scripted-server.js";
import { stdioServer } from "./mcp-support.js";
import { useMcpHarness } from "../support/mcp-harness.js";

// The agent's first prompt waits for its server however loaded the machine is.
const mcp = useMcpHarness({ scratch: "mcp-agent" });

const custom = { source: "user" as const, file: "test", userInvocable: true, modelInvocable: true };
const AGENTS: AgentDefinition[] = [
  {
    ...custom,
    name: "echoer",
    displayName: "Echoer",
    description: "Echoes through its own server",
    tools: ["view", "own/echo_text"],
    systemPrompt: "You are the echoer.",
    mcpServers: { own: stdioServer() },
  },
  { ...custom, name: "plain", displayName: "Plain", description: "No servers of its own", systemPrompt: "You are plain." },
];
const directory: AgentDirectory = {
  list: () => AGENTS,
  get: (name) => AGENTS.find((agent) => agent.name === name),
  modelInvocable: () => AGENTS,
  userInvocable: () => AGENTS,
};

function toolNames(h: Harness, index: number): string[] {
  return ((h.server.completionRequests[index]?.body.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);
}

function serverRecords(): { tool: string; args: { pid?: number } }[] {
  const log = process.env.MCP_TEST_LOG as string;
  return existsSync(log)
    ? readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

describe("a custom agent's own MCP servers", () => {
  it("are offered to that subagent only, and stop when it ends", async () => {
    mcp.harness = await startHarness({ agents: directory, allowAllTools: true });
    mcp.harness.server.enqueue(
      toolCall("task", { description: "echo", prompt: "Echo hi.", agent_type: "echoer" }),
      toolCall("own-echo_text", { text: "hi" }),
      text("It echoed hi."),
      toolCall("task", { description: "plain", prompt: "Anything.", agent_type: "plain" }, { id: "call_plain" }),
      text("Plain done."),
      text("All done."),
    );
    const result = await mcp.harness.session.send("delegate");
    expect(result.outcome).toBe("completed");
    // The main agent never sees the agent's server; the agent does (as its `tools` list names it); another agent does not.
    expect(toolNames(mcp.harness, 0).some((name) => name.startsWith("own-"))).toBe(false);
    expect(toolNames(mcp.harness, 1)).toEqual(expect.arrayContaining(["view", "own-echo_text"]));
    expect(toolNames(mcp.harness, 1)).not.toContain("own-count");
    expect(toolNames(mcp.harness, 3).some((name) => name.startsWith("own-"))).toBe(false);
    expect(toolNames(mcp.harness, 4).some((name) => name.startsWith("own-"))).toBe(false);
    const complete = mcp.harness.ofType("tool.execution_complete").find((event) => event.data.mcpServerName === "own");
    expect(complete?.data).toMatchObject({ success: true, result: { content: "echo: hi" } });
    expect(complete?.agentId).toBeDefined();
    const pid = serverRecords().find((record) => record.tool === "started")?.args.pid as number;
    expect(pid).toBeGreaterThan(0);
    await expect.poll(() => alive(pid)).toBe(false);
    expect(mcp.harness.session.engine.tools().names.some((name) => name.startsWith("own-"))).toBe(false);
  });

  it("are the main agent's while it runs as that agent (--agent), and stop when it is deselected", async () => {
    mcp.harness = await startHarness({ agents: directory, allowAllTools: true });
    expect(mcp.harness.session.engine.dispatch({ type: "select_agent", name: "echoer" })).toBeUndefined();
    mcp.harness.server.enqueue(toolCall("own-echo_text", { text: "main" }), text("done"));
    await mcp.harness.session.send("echo");
    expect(toolNames(mcp.harness, 0)).toContain("own-echo_text");
    expect(mcp.harness.ofType("tool.execution_complete")[0]?.data).toMatchObject({ success: true, result: { content: "echo: main" } });
    const pid = serverRecords().find((record) => record.tool === "started")?.args.pid as number;
    mcp.harness.session.engine.dispatch({ type: "select_agent", name: null });
    await expect.poll(() => alive(pid)).toBe(false);
    mcp.harness.server.enqueue(text("plain again"));
    await mcp.harness.session.send("hello");
    expect(toolNames(mcp.harness, 2).some((name) => name.startsWith("own-"))).toBe(false);
  });
});

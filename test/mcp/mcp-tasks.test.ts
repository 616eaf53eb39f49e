/**
 * MCP tasks: a server's tool that requires task support (`execution.taskSupport: "required"`) runs as a
 * background record of agentType "mcp-task" in the task registry: listed like a background agent, its status
 * messages as its progress, its result as its answer, cancellable (the task is cancelled on the server).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { TaskRecord } from "../../src/core/tasks/task-registry.js";
import { startHarness, waitForEvent, type Harness } from "../support/engine-harness.js";
import { text, toolCall } from "../support/scripted-server.js";
import { mcpConfig, stdioServer } from "./mcp-support.js";
import { useMcpHarness } from "../support/mcp-harness.js";

const mcp = useMcpHarness({ scratch: "mcp-tasks", env: { MCP_TEST_TASKS: "1" } });

function serverLog(): string[] {
  try {
    return readFileSync(process.env.MCP_TEST_LOG as string, "utf8")
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { tool: string }).tool);
  } catch {
    return [];
  }
}

const mcpTask = (h: Harness): TaskRecord | undefined => h.session.engine.agentRecords.find((record) => record.agentType === "mcp-task");

async function start(): Promise<Harness> {
  mcp.harness = await startHarness({ allowAllTools: true, mcp: { additional: [mcpConfig({ mini: stdioServer() })] } });
  return mcp.harness;
}

describe("MCP tasks", () => {
  it("run in the background as an mcp-task record; the result is delivered like a background agent's", async () => {
    const h = await start();
    h.server.enqueue(toolCall("mini-report", { steps: 3 }), text("It is running."));
    const first = await h.session.send("write the report");
    expect(first.outcome).toBe("completed");
    const toolResult = h.ofType("tool.execution_complete")[0]?.data;
    expect(toolResult).toMatchObject({ success: true, mcpServerName: "mini", mcpToolName: "report" });
    const record = mcpTask(h);
    expect(record).toMatchObject({ agentType: "mcp-task", displayName: "mini: report", prompt: JSON.stringify({ steps: 3 }) });
    expect(toolResult?.result?.content).toContain(`agent_id: ${record?.id}`);
    expect(h.ofType("subagent.started")[0]?.data).toMatchObject({ agentType: "mcp-task", executionMode: "background" });

    await waitForEvent(h, (event) => event.type === "subagent.completed");
    expect(mcpTask(h)).toMatchObject({ status: "completed", latestResponse: "report ready after 3 steps" });
    expect(mcpTask(h)?.intent).toMatch(/step \d of 3|completed/);
    expect(
      h
        .ofType("system.notification")
        .map((event) => event.data.content)
        .join("\n"),
    ).toMatch(new RegExp(`${record?.id}.*finished`));

    // list_agents and read_agent see it like any background agent.
    h.server.enqueue(
      toolCall("list_agents", {}, { id: "list" }),
      toolCall("read_agent", { agent_id: record?.id }, { id: "read" }),
      text("The report is ready."),
    );
    await h.session.send("how is it going?");
    const results = h.ofType("tool.execution_complete").map((event) => event.data);
    expect(results.find((result) => result.toolCallId === "list")?.result?.content).toContain(record?.id);
    expect(results.find((result) => result.toolCallId === "read")?.result?.content).toContain("report ready after 3 steps");
  });

  it("is cancelled like a background agent, and the task is cancelled on the server", async () => {
    const h = await start();
    h.server.enqueue(toolCall("mini-forever", {}), text("Started."));
    await h.session.send("start it");
    const record = mcpTask(h);
    expect(record?.status).toBe("running");
    await expect.poll(() => mcpTask(h)?.intent, { timeout: 20_000 }).toBe("working on it");
    expect(h.session.engine.dispatch({ type: "message_agent", agentId: record?.id as string, message: "faster" })).toMatch(/takes no follow-up messages/);
    h.session.engine.dispatch({ type: "cancel_agent", agentId: record?.id as string });
    await waitForEvent(h, (event) => event.type === "subagent.failed");
    expect(mcpTask(h)?.status).toBe("cancelled");
    await expect.poll(serverLog, { timeout: 20_000 }).toContain("task_cancelled");
  });
});

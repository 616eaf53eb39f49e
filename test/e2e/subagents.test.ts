/** `agent -p` with the task tool: the built-in agents, a sync delegation, and a run that waits for its background agents. */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runAgent } from "../support/run-agent.js";
import { text, toolCall } from "../support/scripted-server.js";
import { useAgentQueues, useE2eWorkspace } from "../support/e2e-workspace.js";

const { main, child, responder } = useAgentQueues();
const ws = useE2eWorkspace({ server: { responder } });

const events = () => {
  const [id] = readdirSync(path.join(ws.home, "session-state"));
  return readFileSync(path.join(ws.home, "session-state", id as string, "events.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; agentId?: string; data: Record<string, unknown> });
};

describe("agent -p with subagents", () => {
  it("offers the built-in agents and delegates to one synchronously", async () => {
    main.push(toolCall("task", { description: "look for TODOs", prompt: "List the TODOs.", agent_type: "explore" }), text("There is one TODO."));
    child.push(text("TODO in a.ts:1"));
    const run = await runAgent(["-p", "find the TODOs", "--allow-all-tools"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("There is one TODO.\n");
    const description =
      ((ws.server.completionRequests[0]?.body.tools ?? []) as { function: { name: string; description: string } }[]).find(
        (tool) => tool.function.name === "task",
      )?.function.description ?? "";
    for (const name of ["explore", "task", "general-purpose", "code-review", "research", "rubber-duck"]) expect(description).toContain(`- ${name}: `);
    const childRequest = ws.server.completionRequests.find((request) => request.headers["x-initiator"] === "sub-agent");
    expect(String(childRequest?.body.messages.at(-1)?.content)).toBe("List the TODOs.");
    const types = events().map((event) => event.type);
    expect(types).toContain("subagent.started");
    expect(types).toContain("subagent.completed");
  });

  it("waits for its background agents before it exits, gives the main agent their answers, and counts them", async () => {
    main.push(
      toolCall("task", { description: "check the tests", prompt: "Run nothing; just report.", agent_type: "explore", mode: "background" }),
      text("Started a background check."),
      text("The background check says: all good."),
    );
    child.push(text("All good."));
    const run = await runAgent(["-p", "check in the background", "--allow-all-tools", "--output-format", "json"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout.trim().split("\n").at(-1) as string) as { answer: string; usage: { backgroundAgents?: number } };
    expect(result.answer).toBe("The background check says: all good.");
    expect(result.usage.backgroundAgents).toBe(1);
    const log = events();
    expect(log.filter((event) => event.type === "subagent.completed")).toHaveLength(1);
    expect(log.at(-1)?.type).toBe("session.shutdown");
  });
});

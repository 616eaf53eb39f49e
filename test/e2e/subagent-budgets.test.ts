/** Subagent budgets with the real bin/agent: --max-turns, and settings.json's subagents budgets. */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runAgent } from "../support/run-agent.js";
import { text, toolCall } from "../support/scripted-server.js";
import { useAgentQueues, useE2eWorkspace } from "../support/e2e-workspace.js";

const { main, child, responder } = useAgentQueues();
const ws = useE2eWorkspace({ prefix: "budget", server: { responder } });

const failures = () => {
  const [id] = readdirSync(path.join(ws.home, "session-state")) as [string];
  return readFileSync(path.join(ws.home, "session-state", id, "events.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; data: { error?: string; budget?: unknown } })
    .filter((event) => event.type === "subagent.failed" || event.type === "subagent.started");
};
const delegate = () => toolCall("task", { description: "look around", prompt: "Keep looking.", agent_type: "explore" });

describe("subagent budgets (agent -p)", () => {
  it("--max-turns stops a subagent that keeps calling tools after one last turn to report; the reason is in the log", async () => {
    main.push(delegate(), (request) =>
      text(JSON.stringify(request.body.messages.at(-1)?.content).includes("What I saw so far.") ? "It reported." : "No report."),
    );
    child.push(toolCall("glob", { pattern: "*" }), text("What I saw so far."));
    const run = await runAgent(["-p", "delegate", "--allow-all-tools", "--max-turns", "1"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("It reported.\n");
    const childCalls = ws.server.completionRequests.filter((request) => request.headers["x-initiator"] === "sub-agent");
    expect(childCalls.map((request) => request.body.tool_choice)).toEqual([undefined, "none"]);
    const [started, failed] = failures();
    expect(started?.data.budget).toEqual({ maxTurns: 1 });
    expect(failed?.data.error).toBe("stopped by its budget: it reached its turn budget (1 model call per prompt; --max-turns or subagents.maxTurns)");
  });

  it("settings.json's subagents.maxTokens stops an agent over its tokens", async () => {
    writeFileSync(path.join(ws.home, "settings.json"), JSON.stringify({ subagents: { maxTokens: 500 } }));
    main.push(delegate(), text("Out of tokens."));
    child.push(toolCall("glob", { pattern: "*" }, { usage: { prompt_tokens: 900, completion_tokens: 10 } }), text("Its report."));
    const run = await runAgent(["-p", "delegate", "--allow-all-tools"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Out of tokens.\n");
    expect(failures()[1]?.data.error).toBe("stopped by its budget: it reached its token budget (500 tokens; subagents.maxTokens)");
  });
});

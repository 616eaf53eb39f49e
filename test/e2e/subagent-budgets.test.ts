/** Subagent budgets with the real bin/agent: --max-turns, and settings.json's subagents budgets. */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../support/engine-harness.js";
import { agentEnv, runAgent } from "../support/run-agent.js";
import { startScriptedServer, text, toolCall, type CompletionRequest, type ScriptedResponse, type ScriptedServer } from "../support/scripted-server.js";

let server: ScriptedServer;
let home: string;
let cwd: string;
const main: ScriptedResponse[] = [];
const child: ScriptedResponse[] = [];
beforeEach(async () => {
  main.length = 0;
  child.length = 0;
  server = await startScriptedServer({
    responder: (request: CompletionRequest) => (request.headers["x-initiator"] === "sub-agent" ? child : main).shift() ?? text("(nothing scripted)"),
  });
  home = tempDir("budget-home-");
  cwd = tempDir("budget-cwd-");
});
afterEach(async () => {
  await server.close();
});

const env = () => agentEnv({ home, baseUrl: server.baseUrl });
const failures = () => {
  const [id] = readdirSync(path.join(home, "session-state")) as [string];
  return readFileSync(path.join(home, "session-state", id, "events.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; data: { error?: string; budget?: unknown } })
    .filter((event) => event.type === "subagent.failed" || event.type === "subagent.started");
};
const delegate = () => toolCall("task", { description: "look around", prompt: "Keep looking.", agent_type: "explore" });

describe("subagent budgets (agent -p)", () => {
  it("--max-turns stops a subagent that keeps calling tools; the reason is in the log", async () => {
    main.push(delegate(), text("It was stopped."));
    child.push(toolCall("glob", { pattern: "*" }), toolCall("glob", { pattern: "*" }));
    const run = await runAgent(["-p", "delegate", "--allow-all-tools", "--max-turns", "1"], { env: env(), cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("It was stopped.\n");
    expect(server.completionRequests.filter((request) => request.headers["x-initiator"] === "sub-agent")).toHaveLength(1);
    const [started, failed] = failures();
    expect(started?.data.budget).toEqual({ maxTurns: 1 });
    expect(failed?.data.error).toBe("stopped by its budget: it reached its turn budget (1 model call per prompt; --max-turns or subagents.maxTurns)");
  });

  it("settings.json's subagents.maxTokens stops an agent over its tokens", async () => {
    writeFileSync(path.join(home, "settings.json"), JSON.stringify({ subagents: { maxTokens: 500 } }));
    main.push(delegate(), text("Out of tokens."));
    child.push(toolCall("glob", { pattern: "*" }, { usage: { prompt_tokens: 900, completion_tokens: 10 } }), text("never"));
    const run = await runAgent(["-p", "delegate", "--allow-all-tools"], { env: env(), cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Out of tokens.\n");
    expect(failures()[1]?.data.error).toBe("stopped by its budget: it reached its token budget (500 tokens; subagents.maxTokens)");
  });
});

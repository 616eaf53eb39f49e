/** `agent -p "/review"`, `agent -p "/research …"` and `agent -p "/autopilot <objective>"` with the real binary against the scripted server. */
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../support/engine-harness.js";
import { BASE_FILES, initRepo, makeChanges } from "../support/git-repo.js";
import { agentEnv, runAgent } from "../support/run-agent.js";
import {
  startScriptedServer,
  text,
  toolCall,
  toolCalls,
  type CompletionRequest,
  type ScriptedResponse,
  type ScriptedServer,
} from "../support/scripted-server.js";

type Scripted = ScriptedResponse | ((request: CompletionRequest) => ScriptedResponse);
let server: ScriptedServer;
let home: string;
let cwd: string;
const main: Scripted[] = [];
const child: Scripted[] = [];
beforeEach(async () => {
  main.length = 0;
  child.length = 0;
  const next = (queue: Scripted[], request: CompletionRequest) => {
    const item = queue.shift() ?? text("(nothing scripted)");
    return typeof item === "function" ? item(request) : item;
  };
  server = await startScriptedServer({ responder: (request) => next(request.headers["x-initiator"] === "sub-agent" ? child : main, request) });
  home = tempDir("e2e-home-");
  cwd = tempDir("e2e-cwd-");
});
afterEach(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

const env = () => agentEnv({ home, baseUrl: server.baseUrl });
const lastUser = (request: CompletionRequest | undefined) => String(request?.body.messages.filter((message) => message.role === "user").at(-1)?.content ?? "");

describe("agent -p with the orchestrating commands", () => {
  it('-p "/review" in a repository with changes: the model gets them and delegates to code-review', async () => {
    initRepo(cwd, BASE_FILES);
    makeChanges(cwd);
    main.push(
      toolCall("task", { description: "Review the changes", prompt: "Review the working tree.", agent_type: "code-review" }),
      text("staged.ts:1 (high): the constant changed."),
    );
    child.push(text("- `staged.ts:1` [severity: high]: the constant changed."));
    const run = await runAgent(["-p", "/review"], { env: env(), cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("staged.ts:1 (high): the constant changed.\n");
    const prompt = lastUser(server.completionRequests[0]);
    for (const part of ["STAGED-CHANGE", "UNSTAGED-CHANGE", "new-file.ts", 'agent_type: "code-review"']) expect(prompt).toContain(part);
    const review = server.completionRequests.find((request) => request.headers["x-initiator"] === "sub-agent");
    expect(String(review?.body.messages[0]?.content)).toContain("You are a code reviewer");
  });

  it('-p "/review" with nothing to review says so and makes no request', async () => {
    initRepo(cwd, BASE_FILES);
    const run = await runAgent(["-p", "/review"], { env: env(), cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Nothing to review: the working tree has no staged, unstaged or untracked changes.");
    expect(server.completionRequests).toHaveLength(0);
  });

  it('-p "/research <topic>" dispatches research agents and writes the report in the session folder', async () => {
    const research = (id: string, question: string) => ({
      id,
      name: "task",
      arguments: { description: question, prompt: question, agent_type: "research", mode: "sync" },
    });
    let report = "";
    main.push(
      toolCalls([research("r1", "Where are hooks read?"), research("r2", "How are hooks run?")]),
      (request) => {
        report = /\n\s+(\/\S+\/research\/[\w-]+\.md)\n/.exec(lastUser(server.completionRequests[0]))?.[1] ?? "";
        expect(request.body.messages.filter((message) => message.role === "tool")).toHaveLength(2);
        return toolCall("create", { path: report, file_text: "# Hooks\n\n- read in src/hooks/load-hooks.ts:10\n- run in src/hooks/hook-runner.ts:20\n" });
      },
      () => text(`Report written to ${report}\nHooks are read, then run.`),
    );
    child.push(text("src/hooks/load-hooks.ts:10"), text("src/hooks/hook-runner.ts:20"));
    const run = await runAgent(["-p", "/research how are hooks loaded", "--allow-all-tools"], { env: env(), cwd });
    expect(run.code).toBe(0);
    const [id] = readdirSync(path.join(home, "session-state"));
    expect(path.dirname(report)).toBe(path.join(home, "session-state", id as string, "research"));
    expect(path.basename(report)).toBe("how-are-hooks-loaded.md");
    expect(existsSync(report)).toBe(true);
    expect(readFileSync(report, "utf8")).toContain("load-hooks.ts:10");
    expect(run.stdout).toContain(report);
    expect(server.completionRequests.filter((request) => request.headers["x-initiator"] === "sub-agent")).toHaveLength(2);
  });

  it('-p "/autopilot <objective>" repeats the objective in the continuation', async () => {
    main.push(text("Looking."), toolCall("task_complete", { summary: "Fixed." }));
    const run = await runAgent(["-p", "/autopilot fix the flaky test", "--allow-all-tools"], { env: env(), cwd });
    expect(run.code).toBe(0);
    expect(lastUser(server.completionRequests[0])).toContain("fix the flaky test");
    expect(lastUser(server.completionRequests[1])).toContain("The objective: fix the flaky test");
  });
});

/** `agent -p "/review"`, `agent -p "/research …"` and `agent -p "/autopilot <objective>"` with the real binary against the scripted server. */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BASE_FILES, initRepo, makeChanges } from "../support/git-repo.js";
import { runAgent } from "../support/run-agent.js";
import { text, toolCall, toolCalls, type CompletionRequest } from "../support/scripted-server.js";
import { useAgentQueues, useE2eWorkspace } from "../support/e2e-workspace.js";

const { main, child, responder } = useAgentQueues();
const ws = useE2eWorkspace({ server: { responder }, removeDirs: true });

const lastUser = (request: CompletionRequest | undefined) => String(request?.body.messages.filter((message) => message.role === "user").at(-1)?.content ?? "");

describe("agent -p with the orchestrating commands", () => {
  it('-p "/review" in a repository with changes: the model gets them and delegates to code-review', async () => {
    initRepo(ws.cwd, BASE_FILES);
    makeChanges(ws.cwd);
    main.push(
      toolCall("task", { description: "Review the changes", prompt: "Review the working tree.", agent_type: "code-review" }),
      text("staged.ts:1 (high): the constant changed."),
    );
    child.push(text("- `staged.ts:1` [severity: high]: the constant changed."));
    const run = await runAgent(["-p", "/review"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("staged.ts:1 (high): the constant changed.\n");
    const prompt = lastUser(ws.server.completionRequests[0]);
    for (const part of ["STAGED-CHANGE", "UNSTAGED-CHANGE", "new-file.ts", 'agent_type: "code-review"']) expect(prompt).toContain(part);
    const review = ws.server.completionRequests.find((request) => request.headers["x-initiator"] === "sub-agent");
    expect(String(review?.body.messages[0]?.content)).toContain("You are a code reviewer");
  });

  it('a session begun with -p "/review focus on naming" is named by that line and found by --continue', async () => {
    initRepo(ws.cwd, BASE_FILES);
    makeChanges(ws.cwd);
    main.push(text("No significant issues."), text("Continued."));
    const first = await runAgent(["-p", "/review focus on naming"], { env: ws.env(), cwd: ws.cwd });
    expect(first.code).toBe(0);
    const [id] = readdirSync(path.join(ws.home, "session-state"));
    expect(readFileSync(path.join(ws.home, "session-state", id as string, "workspace.yaml"), "utf8")).toContain("/review focus on naming");
    const next = await runAgent(["--continue", "-p", "and now?"], { env: ws.env(), cwd: ws.cwd });
    expect(next.code).toBe(0);
    expect(next.stdout).toBe("Continued.\n");
    expect(readdirSync(path.join(ws.home, "session-state"))).toEqual([id]);
  });

  it('-p "/review" with nothing to review says so and makes no request', async () => {
    initRepo(ws.cwd, BASE_FILES);
    const run = await runAgent(["-p", "/review"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Nothing to review: the working tree has no staged, unstaged or untracked changes.");
    expect(ws.server.completionRequests).toHaveLength(0);
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
        report = /\n\s+(\/\S+\/research\/[\w-]+\.md)\n/.exec(lastUser(ws.server.completionRequests[0]))?.[1] ?? "";
        expect(request.body.messages.filter((message) => message.role === "tool")).toHaveLength(2);
        return toolCall("create", { path: report, file_text: "# Hooks\n\n- read in src/hooks/load-hooks.ts:10\n- run in src/hooks/hook-runner.ts:20\n" });
      },
      () => text(`Report written to ${report}\nHooks are read, then run.`),
    );
    child.push(text("src/hooks/load-hooks.ts:10"), text("src/hooks/hook-runner.ts:20"));
    const run = await runAgent(["-p", "/research how are hooks loaded", "--allow-all-tools"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    const [id] = readdirSync(path.join(ws.home, "session-state"));
    expect(path.dirname(report)).toBe(path.join(ws.home, "session-state", id as string, "research"));
    expect(path.basename(report)).toBe("how-are-hooks-loaded.md");
    expect(existsSync(report)).toBe(true);
    expect(readFileSync(report, "utf8")).toContain("load-hooks.ts:10");
    expect(run.stdout).toContain(report);
    expect(ws.server.completionRequests.filter((request) => request.headers["x-initiator"] === "sub-agent")).toHaveLength(2);
  });

  it('-p "/autopilot <objective>" repeats the objective in the continuation', async () => {
    main.push(text("Looking."), toolCall("task_complete", { summary: "Fixed." }));
    const run = await runAgent(["-p", "/autopilot fix the flaky test", "--allow-all-tools"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(lastUser(ws.server.completionRequests[0])).toContain("fix the flaky test");
    expect(lastUser(ws.server.completionRequests[1])).toContain("The objective: fix the flaky test");
  });
});

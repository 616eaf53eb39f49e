/**
 * `agent -p --plan` with the real binary: the plan is written (without asking), nothing else changes, and
 * the run ends printing the plan's path; with --plan --autopilot the plan is accepted and implemented in the
 * same run. ask_user answers "decide yourself" at once.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { USER_NOT_AVAILABLE } from "../../src/tools/ask-user.js";
import { tempDir } from "../support/engine-harness.js";
import { git, initRepo } from "../support/git-repo.js";
import { agentEnv, runAgent } from "../support/run-agent.js";
import { startScriptedServer, text, toolCall, type ScriptedServer } from "../support/scripted-server.js";
import type { CompletionRequest, ScriptedResponse } from "../support/scripted-responses.js";

let server: ScriptedServer;
let home: string;
let cwd: string;
afterEach(async () => {
  await server?.close();
});

/** The session folder, as the system prompt tells the model. */
function sessionFolder(request: CompletionRequest): string {
  const system = String(request.body.messages[0]?.content ?? "");
  const match = /Session folder[^:]*: (\S+)/.exec(system);
  if (!match?.[1]) throw new Error("no session folder in the system prompt");
  return match[1];
}

/** A scripted model that plans: writes plan.md, tries to change a file, then asks for review; then `after`. */
async function planningServer(after: (request: CompletionRequest) => ScriptedResponse) {
  const steps: ((request: CompletionRequest) => ScriptedResponse)[] = [
    (request) => toolCall("create", { path: path.join(sessionFolder(request), "plan.md"), file_text: "# Plan\n1. Write hello.txt\n" }),
    () => toolCall("edit", { path: path.join(cwd, "keep.txt"), old_str: "original", new_str: "changed" }),
    () => toolCall("ask_user", { question: "Which greeting?", choices: ["hello", "hi"] }),
    () => toolCall("exit_plan_mode", { summary: "- write hello.txt" }),
  ];
  server = await startScriptedServer({ responder: (request) => (steps[request.index] ?? after)(request) });
}

beforeEach(() => {
  home = tempDir("e2e-plan-home-");
  cwd = tempDir("e2e-plan-cwd-");
  writeFileSync(path.join(cwd, "keep.txt"), "original\n");
});

const toolResults = (stdout: string) =>
  stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { type: string; data?: { success?: boolean; result?: { content?: string } }; planPath?: string });

describe("agent -p --plan", () => {
  it("writes the plan, changes nothing else, and prints the plan's path", async () => {
    await planningServer(() => text("should not be asked"));
    const run = await runAgent(["-p", "add a greeting", "--plan"], { env: agentEnv({ home, baseUrl: server.baseUrl }), cwd });
    expect(run.code).toBe(0);
    const [id] = readdirSync(path.join(home, "session-state"));
    const plan = path.join(home, "session-state", id as string, "plan.md");
    expect(readFileSync(plan, "utf8")).toContain("1. Write hello.txt");
    expect(readFileSync(path.join(cwd, "keep.txt"), "utf8")).toBe("original\n");
    expect(readdirSync(cwd)).toEqual(["keep.txt"]);
    expect(run.stderr).toMatch(new RegExp(`Plan\\s+${plan.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
    expect(server.completionRequests).toHaveLength(4);
    // ask_user is the question/choices variant, answered at once.
    const askResult = server.completionRequests[3]?.body.messages.at(-1);
    expect(String(askResult?.content)).toContain(USER_NOT_AVAILABLE);
  });

  it("puts planPath in the JSON result line", async () => {
    await planningServer(() => text("should not be asked"));
    const run = await runAgent(["-p", "add a greeting", "--plan", "--output-format", "json"], { env: agentEnv({ home, baseUrl: server.baseUrl }), cwd });
    const lines = toolResults(run.stdout);
    const result = lines.at(-1);
    expect(result?.type).toBe("result");
    expect(result?.planPath).toMatch(/plan\.md$/);
    expect(existsSync(result?.planPath as string)).toBe(true);
    expect(lines.some((line) => line.type === "tool.execution_complete" && line.data?.success === false)).toBe(true); // the edit was refused
  });

  it("tells the model the plan's absolute path and records the start in plan mode as a switch", async () => {
    await planningServer(() => text("should not be asked"));
    const run = await runAgent(["-p", "add a greeting", "--mode", "plan"], { env: agentEnv({ home, baseUrl: server.baseUrl }), cwd });
    expect(run.code, run.stderr).toBe(0);
    const [id] = readdirSync(path.join(home, "session-state"));
    const folder = path.join(home, "session-state", id as string);
    const system = String(server.completionRequests[0]?.body.messages[0]?.content);
    expect(system).toContain(`Write the plan to ${path.join(sessionFolder(server.completionRequests[0] as CompletionRequest), "plan.md")} (`);
    const log = readFileSync(path.join(folder, "events.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });
    expect(log.slice(0, 2).map((event) => event.type)).toEqual(["session.start", "session.mode_changed"]);
    expect(log[1]?.data).toEqual({ previousMode: "interactive", newMode: "plan" });
    expect(log.filter((event) => event.type === "session.mode_changed")).toHaveLength(1);
  });

  it("under --yolo changes nothing but the plan: inline code and git commands that change state are refused, read-only git runs", async () => {
    initRepo(cwd, { "keep.txt": "original\n" });
    const commands = [
      `python3 -c "open('pwned.txt','w').write('x')"`,
      "git branch feature",
      "git config user.name Mallory",
      "git commit --allow-empty -m sneaky",
      "git status --short",
    ];
    server = await startScriptedServer();
    server.enqueue(...commands.map((command, index) => toolCall("bash", { command, description: "try" }, { id: `c${index}` })), text("Planned only."));
    const run = await runAgent(["-p", "plan it", "--mode", "plan", "--yolo"], { env: agentEnv({ home, baseUrl: server.baseUrl }), cwd });
    expect(run.code).toBe(0);
    expect(existsSync(path.join(cwd, "pwned.txt"))).toBe(false);
    expect(git(cwd, "branch", "--list").trim()).toBe("* main");
    expect(readFileSync(path.join(cwd, ".git", "config"), "utf8")).not.toContain("Mallory");
    expect(git(cwd, "rev-list", "--count", "HEAD").trim()).toBe("1");
    const results = server.completionRequests.at(-1)?.body.messages.filter((message) => message.role === "tool") ?? [];
    expect(results).toHaveLength(commands.length);
    for (const result of results.slice(0, 4)) {
      expect(String(result.content)).toMatch(/^In plan mode a shell command runs only when it is known to be read-only/);
      expect(String(result.content)).toContain("exit_plan_mode");
    }
    expect(String(results[4]?.content)).not.toContain("plan mode");
  });

  it.each([["text"], ["json"]])("never reports a plan that was not written (%s output)", async (format) => {
    // The model asks for review without writing plan.md, is told to write it first, and gives up.
    const steps = [toolCall("exit_plan_mode", { summary: "- a plan only in words" }), text("I have no plan to write.")];
    server = await startScriptedServer({ responder: (request) => steps[request.index] ?? text("unexpected") });
    const run = await runAgent(["-p", "add a greeting", "--plan", "--output-format", format], { env: agentEnv({ home, baseUrl: server.baseUrl }), cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout + run.stderr).not.toContain("Plan written");
    expect(run.stderr).not.toMatch(/^Plan\s/m);
    const review = String(server.completionRequests[1]?.body.messages.at(-1)?.content);
    expect(review).toMatch(/There is no plan to review: .*plan\.md does not exist/);
    if (format === "json") {
      const result = toolResults(run.stdout).at(-1);
      expect(result?.type).toBe("result");
      expect(result?.planPath).toBeUndefined();
      expect(JSON.stringify(result)).not.toContain("Plan written");
    } else {
      expect(run.stdout).toContain("I have no plan to write.");
    }
  });

  it.each([[["--plan", "--autopilot"]], [["--plan", "--mode", "autopilot"]], [["--mode", "plan", "--autopilot"]]])(
    "%j accepts the plan and implements it in the same run",
    async (flags) => {
      const implement: ScriptedResponse[] = [
        toolCall("create", { path: path.join(cwd, "hello.txt"), file_text: "hello\n" }),
        toolCall("task_complete", { summary: "Wrote hello.txt" }),
      ];
      await planningServer((request) => implement[request.index - 4] ?? text("done"));
      const run = await runAgent(["-p", "add a greeting", ...flags, "--allow-all-tools"], { env: agentEnv({ home, baseUrl: server.baseUrl }), cwd });
      expect(run.code, run.stderr).toBe(0);
      expect(readFileSync(path.join(cwd, "hello.txt"), "utf8")).toBe("hello\n");
      const review = server.completionRequests[4]?.body.messages.at(-1);
      expect(String(review?.content)).toMatch(/^Plan approved! Exited plan mode\./);
      expect(run.stdout).toContain("Wrote hello.txt");
    },
  );
});

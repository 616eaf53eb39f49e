/**
 * Background agents in a headless run, with the real binary: `--fleet` is the orchestration prompt (not
 * autopilot), so a run whose agents answered and whose model answered exits 0; an agent's answer reaches the
 * main agent inside its notification (bounded), with no read_agent round trip; an exit while an agent still
 * runs says what it stops, records it as cancelled, and a resume lists it as it really ended, by its id.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { collect, runAgent, startAgent } from "../support/run-agent.js";
import { hang, text, toolCall, toolCalls, type CompletionRequest } from "../support/scripted-server.js";
import { useAgentQueues, useE2eWorkspace } from "../support/e2e-workspace.js";

const { main, child, responder } = useAgentQueues();
const ws = useE2eWorkspace({ prefix: "e2e-background", server: { responder } });

type LoggedEvent = { type: string; agentId?: string; data: Record<string, unknown> };

const onlySession = () => readdirSync(path.join(ws.home, "session-state"))[0] as string;
const events = (): LoggedEvent[] =>
  readFileSync(path.join(ws.home, "session-state", onlySession(), "events.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as LoggedEvent);

const conversationText = (request: CompletionRequest) => request.body.messages.map((message) => String(message.content ?? "")).join("\n");
const background = (name: string, prompt: string) => ({
  name: "task",
  arguments: { description: `work on ${name}`, prompt, agent_type: "general-purpose", mode: "background", name },
});
/** A subagent's answer picked by the prompt it was given (agents run in any order). */
const answerByPrompt = (request: CompletionRequest) => text(conversationText(request).includes("[alpha]") ? "ALPHA-ANSWER" : "BETA-ANSWER");

describe("--fleet in a headless run", () => {
  it("is fleet mode, not autopilot: agents answer in notifications, the model answers, and the run exits 0", async () => {
    const waitOrFinish = (request: CompletionRequest) => {
      const seen = conversationText(request);
      return seen.includes("ALPHA-ANSWER") && seen.includes("BETA-ANSWER")
        ? text("Both answered: ALPHA-ANSWER and BETA-ANSWER.")
        : text("Waiting for the other agent.");
    };
    main.push(toolCalls([background("alpha", "[alpha] Do part A."), background("beta", "[beta] Do part B.")]), text("Dispatched both."));
    main.push(waitOrFinish, waitOrFinish, waitOrFinish);
    child.push(answerByPrompt, answerByPrompt);
    const run = await runAgent(["--fleet", "-p", "Build both parts", "--allow-all-tools"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Fleet deployed: Build both parts");
    expect(run.stdout.trim().split("\n").at(-1)).toBe("Both answered: ALPHA-ANSWER and BETA-ANSWER.");
    const first = ws.server.completionRequests[0];
    expect(String(first?.body.messages.at(-1)?.content)).toContain("You are now in fleet mode");
    // Not autopilot: no task_complete offered, no continuation nudges.
    const tools = ((first?.body.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);
    expect(tools).not.toContain("task_complete");
    const log = events();
    expect(log.some((event) => event.type === "session.mode_changed")).toBe(false);
    expect(log.some((event) => event.type === "user.message" && event.data.source === "autopilot")).toBe(false);
    // The answers came with the notifications: the model never had to call read_agent.
    expect(log.some((event) => event.type === "tool.execution_start" && event.data.toolName === "read_agent")).toBe(false);
    const notices = log.filter((event) => event.type === "system.notification").map((event) => String(event.data.content));
    expect(notices.some((notice) => notice.includes("alpha-1") && notice.includes("ALPHA-ANSWER"))).toBe(true);
    expect(notices.some((notice) => notice.includes("beta-1") && notice.includes("BETA-ANSWER"))).toBe(true);
    expect(log.filter((event) => event.type === "subagent.completed")).toHaveLength(2);
    expect(log.some((event) => event.type === "subagent.failed")).toBe(false);
  });
});

describe("a background agent's answer", () => {
  it("reaches the main agent in its notification, cut at 4,000 characters with a note that read_agent has the rest", async () => {
    const long = `HEAD-${"x".repeat(4_500)}-TAIL-MARKER`;
    main.push(toolCall("task", background("long", "Write a lot.").arguments), text("Started."), text("Got the gist."));
    child.push(text(long));
    const run = await runAgent(["-p", "delegate a long answer", "--allow-all-tools"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split("\n").at(-1)).toBe("Got the gist.");
    const heard = ws.server.completionRequests.filter((request) => request.headers["x-initiator"] !== "sub-agent").at(-1);
    const notification = String(heard?.body.messages.at(-1)?.content);
    expect(notification).toContain("<system_notification>");
    expect(notification).toContain("Background agent long-1 (general-purpose) has answered");
    expect(notification).toContain(`HEAD-${"x".repeat(100)}`);
    expect(notification).toContain(`[… ${long.length - 4_000} more characters: read_agent long-1 returns the whole answer]`);
    expect(notification).not.toContain("TAIL-MARKER");
    expect(events().filter((event) => event.type === "subagent.completed")).toHaveLength(1);
  });
});

describe("exit with a background agent running", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)("(%s) says what it stops, records it as cancelled before the log closes, and a resume lists it by id as cancelled", async (signal, code) => {
    main.push(toolCall("task", background("slow", "Take your time.").arguments), text("Started the slow one."));
    child.push(hang());
    const agent = startAgent(["-p", "start something slow", "--allow-all-tools"], { env: ws.env(), cwd: ws.cwd });
    const ended = collect(agent);
    // The run has answered and waits for its background agent, whose request hangs: then the signal.
    await ws.server.waitForHang();
    agent.kill(signal);
    const run = await ended;
    expect(run.code).toBe(code);
    expect(run.stderr).toContain("Stopping 1 background agent as the session ends: slow-1 (running: cancelled).");
    const log = events();
    const failed = log.filter((event) => event.type === "subagent.failed");
    expect(failed.map((event) => event.data.error)).toEqual(["cancelled: the session ended while it was running"]);
    expect(log.findIndex((event) => event.type === "subagent.failed")).toBeLessThan(log.findIndex((event) => event.type === "session.shutdown"));
    expect(log.some((event) => event.type === "subagent.completed")).toBe(false);

    const id = onlySession();
    const tasks = await runAgent(["--resume", id, "-p", "/tasks"], { env: ws.env(), cwd: ws.cwd });
    expect(tasks.code, tasks.stderr).toBe(0);
    expect(tasks.stdout).toMatch(/slow-1 +cancelled /);
    // The resume adds no "interrupted" end: the agent's end was on record.
    expect(events().filter((event) => event.type === "subagent.failed")).toHaveLength(1);
  });
});

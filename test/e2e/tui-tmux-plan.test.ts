/**
 * Plan mode in a real terminal (tmux): `agent --plan`, the model writes its plan and asks for review, the
 * "Plan ready for review" dialog shows, Ctrl+Y prints the plan, and choosing "continue interactively"
 * switches the mode and tells the model to implement. Then an ask_user form answered in the terminal.
 * Needs a build and tmux.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { text, toolCall, type CompletionRequest, type ScriptedResponse } from "../support/scripted-server.js";
import { HAS_TMUX, waitUntil, type TmuxPane } from "../support/tmux.js";
import { AGENT_COMMAND as AGENT, idle, sendPrompt, useTmuxAgent } from "../support/tmux-agent.js";

const TURN_MS = 20_000;

let steps: ((request: CompletionRequest) => ScriptedResponse)[] = [];
const tt = useTmuxAgent({ prefix: "tui-plan", server: { responder: (request) => (steps[request.index] ?? (() => text("(unscripted)")))(request) } });

const contentOf = (message: { content?: unknown } | undefined): string =>
  typeof message?.content === "string" ? message.content : JSON.stringify(message?.content ?? "");
const lastTool = (request: CompletionRequest | undefined): string => contentOf(request?.body.messages.filter((m) => m.role === "tool").at(-1));

function sessionFolder(request: CompletionRequest): string {
  const match = /Session folder[^:]*: (\S+)/.exec(contentOf(request.body.messages[0]));
  if (!match?.[1]) throw new Error("no session folder in the system prompt");
  return match[1];
}

const open = (args: string): Promise<TmuxPane> => tt.launch(`${AGENT} ${args}`);

describe.skipIf(!HAS_TMUX)("plan mode and ask_user in tmux", () => {
  beforeEach(async () => {
    steps = [];
  });

  it("reviews the plan in the dialog and continues interactively", { timeout: 90_000 }, async () => {
    let planPath = "";
    steps = [
      (request) => {
        planPath = path.join(sessionFolder(request), "plan.md");
        return toolCall("create", { path: planPath, file_text: "# Plan\n\n1. Write hello.txt with PLAN-BODY-MARKER\n" });
      },
      () => toolCall("exit_plan_mode", { summary: "- write hello.txt\n- nothing else", recommendedAction: "autopilot" }),
      () => text("Implementing the plan now."),
    ];
    const p = await open("--plan");
    expect(await p.waitForText("Plan")).toBeTruthy();
    await sendPrompt(p, "plan a greeting");
    const dialog = await p.waitFor((s) => s.includes("Plan ready for review") && s.includes("Suggest changes"), {
      timeoutMs: TURN_MS,
      what: "the plan review",
    });
    expect(dialog).toContain("- write hello.txt");
    expect(dialog).toMatch(/1\. Accept plan and continue in autopilot \(recommended\)/);
    expect(dialog).toMatch(/2\. Accept plan and continue interactively/);
    await p.sendKeys("C-y");
    await p.waitForText("PLAN-BODY-MARKER", { timeoutMs: TURN_MS });
    await p.type("2");
    const done = await p.waitFor((s) => s.includes("Implementing the plan now.") && idle(s), { timeoutMs: TURN_MS, what: "the implementation turn" });
    expect(done).not.toContain("Suggest changes");
    expect(lastTool(tt.server.completionRequests[2])).toMatch(/^Plan approved! Exited plan mode\./);
    expect(readFileSync(planPath, "utf8")).toContain("PLAN-BODY-MARKER");
    const footer = done
      .split("\n")
      .filter((line) => line.trim() !== "")
      .slice(-3)
      .join("\n");
    expect(footer).toContain("Interactive");
  });

  it("answers an ask_user form in the terminal", { timeout: 90_000 }, async () => {
    steps = [
      () =>
        toolCall("ask_user", {
          message: "Pick the storage.",
          requestedSchema: {
            type: "object",
            properties: { db: { type: "string", title: "Database", enum: ["sqlite", "postgres"] }, note: { type: "string", title: "Anything else?" } },
          },
        }),
      () => text("Thanks, noted."),
    ];
    const p = await open("");
    await sendPrompt(p, "set up storage");
    await p.waitFor((s) => s.includes("Pick the storage.") && s.includes("2. postgres"), { timeoutMs: TURN_MS, what: "the form" });
    await p.type("2");
    await p.waitForText("Anything else?");
    await p.type("keep it small");
    await p.sendKeys("Enter");
    await p.waitFor((s) => s.includes("Thanks, noted.") && idle(s), { timeoutMs: TURN_MS, what: "the answer" });
    await waitUntil(() => tt.server.completionRequests.length >= 2, TURN_MS, "the answer to reach the model");
    const answer = lastTool(tt.server.completionRequests[1]);
    expect(answer).toContain('"db": "postgres"');
    expect(answer).toContain('"note": "keep it small"');
  });
});

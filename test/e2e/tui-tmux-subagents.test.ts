/**
 * Subagents in the real TUI (tmux): a sync agent's block under its task call (name, description, use against
 * its budget), Ctrl+X then B moving it to the background panel while the main agent goes on, and the agent's
 * answer reaching the main agent.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { text, toolCall, type CompletionRequest, type ScriptedResponse } from "../support/scripted-server.js";
import { HAS_TMUX } from "../support/tmux.js";
import { AGENT_COMMAND as AGENT, useTmuxAgent } from "../support/tmux-agent.js";

const main: (ScriptedResponse | Promise<ScriptedResponse>)[] = [];
const agents: (ScriptedResponse | Promise<ScriptedResponse>)[] = [];
const tt = useTmuxAgent({
  prefix: "tui-sub",
  server: {
    responder: async (request: CompletionRequest) =>
      (await (request.headers["x-initiator"] === "sub-agent" ? agents : main).shift()) ?? text("(nothing scripted)"),
  },
});

describe.skipIf(!HAS_TMUX)("subagents in the TUI (tmux)", () => {
  beforeEach(async () => {
    main.length = 0;
    agents.length = 0;
  });

  it("shows the sync block with its budget; Ctrl+X B moves it to the background and the main agent goes on", { timeout: 60_000 }, async () => {
    let release: (response: ScriptedResponse) => void = () => undefined;
    main.push(
      toolCall("task", { description: "find the auth code", prompt: "Find it.", agent_type: "explore", name: "finder" }),
      text("Going on meanwhile."),
      text("FINDER REPORTED auth.ts"),
    );
    agents.push(new Promise<ScriptedResponse>((resolve) => (release = resolve)));
    const pane = await tt.open(AGENT);
    await pane.waitForText("Ask anything", { timeoutMs: 20_000 });
    await pane.type("find it");
    await pane.waitForText("find it");
    await pane.sendKeys("Enter");
    const block = await pane.waitFor((s) => s.includes("Explore · find the auth code"), { timeoutMs: 20_000, what: "the subagent block" });
    expect(block).toMatch(/turns 1\/50 · 0 tokens/);

    await pane.sendKeys("C-x");
    await pane.waitForText("Ctrl+X: B moves the running agent to the background", { timeoutMs: 10_000 });
    await pane.sendKeys("b");
    const moved = await pane.waitFor((s) => s.includes("Going on meanwhile.") && s.includes("Background · 1 running"), {
      timeoutMs: 20_000,
      what: "the agent in the background panel",
    });
    expect(moved).toMatch(/● finder-1 \(explore\) running/);

    release(text("It is in auth.ts."));
    await pane.waitFor((s) => s.includes("FINDER REPORTED auth.ts") && s.includes("1 idle"), {
      timeoutMs: 20_000,
      what: "the main agent's turn for the answer",
    });

    // /tasks: the agent waits for a message; Enter prints its transcript.
    await pane.type("/tasks");
    await pane.waitForText("/tasks");
    await pane.sendKeys("Enter");
    const list = await pane.waitFor((s) => s.includes("Background tasks"), { timeoutMs: 10_000, what: "the /tasks dialog" });
    expect(list).toMatch(/❯ ○ finder-1 \(explore\) idle \d+s · find the auth code/);
    await pane.sendKeys("Enter");
    const printed = await pane.waitFor((s) => s.includes("finder-1 transcript") && !s.includes("Background tasks"), {
      timeoutMs: 10_000,
      what: "the transcript",
    });
    expect(printed).toContain("› Find it.");
    expect(printed).toContain("It is in auth.ts.");
  });

  it("/quit with a background agent at work says, after the TUI, which agent it stops", { timeout: 60_000 }, async () => {
    main.push(
      toolCall("task", { description: "a slow job", prompt: "Take your time.", agent_type: "explore", name: "slow", mode: "background" }),
      text("Started the slow one."),
    );
    agents.push(new Promise<ScriptedResponse>(() => undefined));
    const pane = await tt.open(AGENT);
    await pane.waitForText("Ask anything", { timeoutMs: 20_000 });
    await pane.type("start it");
    await pane.waitForText("start it");
    await pane.sendKeys("Enter");
    await pane.waitFor((s) => s.includes("Started the slow one.") && s.includes("Background · 1 running"), { timeoutMs: 20_000, what: "the agent at work" });
    await pane.type("/quit");
    await pane.waitForText("/quit");
    await pane.sendKeys("Enter");
    await pane.waitForExit(20_000);
    const after = await pane.waitForText("Stopping 1 background agent as the session ends: slow-1 (running: cancelled).", { timeoutMs: 5_000 });
    expect(after).toContain("Resume this session with: agent --resume");
  });
});

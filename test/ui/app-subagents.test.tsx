/**
 * Subagents in the whole app over the real engine (the built-in agents, the scripted server routing the main
 * agent's and the subagents' requests by their x-initiator header): the sync block with its budget, Ctrl+X B
 * moving it to the background, and the /tasks dialog.
 */
import { describe, expect, it } from "vitest";
import { useAppHarness } from "../support/app-harness.js";
import { text, toolCall, type CompletionRequest, type ScriptedResponse } from "../support/scripted-server.js";
import { TestSessionHost } from "../support/tui-host.js";
import { transcriptFromLog } from "../../src/ui/state/history-from-log.js";
import { initialTranscript } from "../../src/ui/state/transcript-types.js";

const app = useAppHarness();

type Scripted = ScriptedResponse | Promise<ScriptedResponse>;

async function startApp(flags: Parameters<typeof TestSessionHost.start>[0] = {}) {
  const main: Scripted[] = [];
  const agents: Scripted[] = [];
  const { host, tui } = await app.start({
    flags,
    server: {
      responder: async (request: CompletionRequest) =>
        (await (request.headers["x-initiator"] === "sub-agent" ? agents : main).shift()) ?? text("(nothing scripted)"),
    },
  });
  return { host, tui, main, agents };
}

/** A response the test releases when it wants. */
function gate(): { response: Promise<ScriptedResponse>; release(response: ScriptedResponse): void } {
  let release: (response: ScriptedResponse) => void = () => undefined;
  const response = new Promise<ScriptedResponse>((resolve) => (release = resolve));
  return { response, release };
}

const task = (args: Record<string, unknown>, id = "call_task") =>
  toolCall("task", { description: "find the auth code", prompt: "Find the auth code.", agent_type: "explore", ...args }, { id });

describe("subagents in the app", () => {
  it("Ctrl+X B moves a running sync agent to the background; the main agent goes on and hears its answer", async () => {
    const { tui, main, agents } = await startApp();
    const answer = gate();
    main.push(task({ name: "finder" }), text("I will go on meanwhile."), text("The finder says: auth.ts."));
    agents.push(answer.response);
    tui.bus.type("find it");
    tui.bus.press("enter");
    // The sync block: the agent, its description, its use against its budget.
    const block = await tui.waitForFrame((frame) => frame.includes("Explore · find the auth code"));
    expect(block).toMatch(/turns 1\/50 · 0 tokens/);
    tui.bus.press("ctrl+x");
    await tui.waitForFrame((frame) => frame.includes("Ctrl+X: B moves the running agent to the background"));
    tui.bus.type("b");
    const moved = await tui.waitForFrame((frame) => frame.includes("I will go on meanwhile."));
    expect(moved).toContain("Background · 1 running");
    expect(moved).toMatch(/● finder-1 \(explore\) running \d+s · turns 1\/50/);
    // The chord's B was not typed into the prompt.
    expect(moved).not.toMatch(/› b\b/);
    answer.release(text("It is in auth.ts."));
    const after = await tui.waitForFrame((frame) => frame.includes("The finder says: auth.ts."));
    expect(after).toContain("finder-1");
  });

  it("Ctrl+X B with no agent running says so", async () => {
    const { tui } = await startApp();
    tui.bus.press("ctrl+x");
    tui.bus.type("b");
    await tui.waitForFrame((frame) => frame.includes("No agent is running in the foreground."));
  });

  it("a key after Ctrl+X that is not a chord key is typed as if Ctrl+X had not been pressed", async () => {
    const { tui } = await startApp();
    tui.bus.press("ctrl+x");
    await tui.waitForFrame((frame) => frame.includes("Ctrl+X: B moves the running agent to the background"));
    tui.bus.type("hello");
    const typed = await tui.waitForFrame((frame) => frame.includes("ello") && !frame.includes("Ctrl+X: B moves"));
    expect(typed).toMatch(/› hello/);
  });

  it("/tasks lists the agents; m messages one, c cancels another, Enter prints a transcript, Esc closes", async () => {
    const { host, tui, main, agents } = await startApp();
    const never = gate();
    main.push(
      toolCall("task", { description: "answer then wait", prompt: "First job.", agent_type: "explore", name: "talker", mode: "background" }, { id: "t1" }),
      text("Started one."),
    );
    agents.push(text("First answer."));
    tui.bus.type("start one");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("Started one."));
    await tui.waitForFrame(() => host.session.agentRecords[0]?.status === "idle");
    main.push(
      toolCall("task", { description: "a slow job", prompt: "Slow job.", agent_type: "explore", name: "slow", mode: "background" }, { id: "t2" }),
      text("Started two."),
    );
    agents.push(never.response);
    tui.bus.type("start two");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("Started two.") && frame.includes("1 running · 1 idle"));

    tui.bus.type("/tasks");
    tui.bus.press("enter");
    const list = await tui.waitForFrame((frame) => frame.includes("Background tasks"));
    expect(list).toMatch(/❯ ○ talker-1 \(explore\) idle \d+s · answer then wait/);
    expect(list).toMatch(/● slow-1 \(explore\) running \d+s · a slow job/);

    // m: a follow-up for the idle agent, which wakes and answers.
    agents.push(text("Second answer."));
    tui.bus.type("m");
    await tui.waitForFrame((frame) => frame.includes("Message to talker-1:"));
    tui.bus.type("and the tests?");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("Sent to talker-1."));
    await tui.waitForFrame(() => host.session.agentRecords[0]?.latestResponse === "Second answer.");

    // c on the running one cancels it.
    tui.bus.press("down");
    tui.bus.type("c");
    await tui.waitForFrame((frame) => frame.includes("Cancelled slow-1."));
    expect(host.session.agentRecords[1]?.status).toBe("cancelled");

    // Enter on the first prints its transcript into the history and closes the dialog.
    tui.bus.press("up");
    tui.bus.press("enter");
    const printed = await tui.waitForFrame((frame) => frame.includes("talker-1 transcript"));
    expect(printed).toContain("› First job.");
    expect(printed).toContain("First answer.");
    expect(printed).toContain("› and the tests?");
    expect(printed).toContain("Second answer.");
    expect(printed).not.toContain("Background tasks");

    tui.bus.type("/tasks");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("Background tasks"));
    tui.bus.press("escape");
    await tui.waitForFrame((frame) => !frame.includes("Background tasks"));
  });

  it("/clear with background agents at work says what it stops; the old session records their ends", async () => {
    const { host, tui, main, agents } = await startApp();
    const never = gate();
    main.push(
      toolCall("task", { description: "answer then wait", prompt: "First job.", agent_type: "explore", name: "talker", mode: "background" }, { id: "t1" }),
      text("Started one."),
      // The turn the main agent gets for talker-1's answer.
      text("Heard talker-1."),
      toolCall("task", { description: "a slow job", prompt: "Slow job.", agent_type: "explore", name: "slow", mode: "background" }, { id: "t2" }),
      text("Started two."),
    );
    agents.push(text("First answer."), never.response);
    tui.bus.type("start one");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("Heard talker-1.") && host.session.agentRecords[0]?.status === "idle" && !host.session.busy);
    tui.bus.type("start two");
    tui.bus.press("enter");
    // The panel: the agent that answered waits idle (its answer is on record), the other runs; both by id.
    const both = await tui.waitForFrame((frame) => frame.includes("Started two.") && frame.includes("1 running · 1 idle"));
    expect(both).toMatch(/talker-1 completed/);
    const old = host.session;
    tui.bus.type("/clear");
    tui.bus.press("enter");
    await tui.waitForFrame(() => host.session !== old);
    // The new session's transcript opens with what closing the old one said (run-tui reprints it on the switch).
    const shown = transcriptFromLog(host.history, initialTranscript({ mode: "interactive", model: "m" })).items;
    expect(shown).toEqual([
      expect.objectContaining({
        kind: "notice",
        level: "warning",
        text: "Stopping 2 background agents as the session ends: talker-1 (idle after its answer: completed), slow-1 (running: cancelled).",
      }),
    ]);
    expect(old.agentRecords.map((record) => [record.id, record.status])).toEqual([
      ["talker-1", "completed"],
      ["slow-1", "cancelled"],
    ]);
  });

  it("leaving the TUI with an agent at work: the host's shutdown gives the words printed after it, and records the end", async () => {
    const { host, tui, main, agents } = await startApp();
    const never = gate();
    main.push(toolCall("task", { description: "a slow job", prompt: "Slow job.", agent_type: "explore", name: "slow", mode: "background" }), text("Started."));
    agents.push(never.response);
    tui.bus.type("start it");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("Started.") && frame.includes("1 running"));
    const session = host.session;
    expect(host.shutdown()).toEqual(["Stopping 1 background agent as the session ends: slow-1 (running: cancelled)."]);
    expect(session.agentRecords.map((record) => [record.id, record.status, record.error])).toEqual([
      ["slow-1", "cancelled", "the session ended while it was running"],
    ]);
  });

  it("/tasks stops a background shell with c", async () => {
    const { host, tui, main } = await startApp({ allowAllTools: true });
    main.push(toolCall("bash", { command: "sleep 30", description: "Sleep a while", mode: "async", shellId: "sleeper" }), text("It sleeps."));
    tui.bus.type("sleep in the background");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("It sleeps."));
    expect(host.session.backgroundShells.map((shell) => shell.shellId)).toEqual(["sleeper"]);
    tui.bus.type("/tasks");
    tui.bus.press("enter");
    const list = await tui.waitForFrame((frame) => frame.includes("Background tasks"));
    expect(list).toContain("❯ ● shell sleeper running Sleep a while");
    tui.bus.type("c");
    await tui.waitForFrame((frame) => frame.includes("Stopped shell sleeper."));
    expect(host.session.backgroundShells).toEqual([]);
  });
});

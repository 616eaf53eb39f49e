/** The whole app with the real engine behind it and the scripted server as the model (no mocks of the core). */
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { SessionCommand } from "../../src/protocol/commands.js";
import { MemoryPromptHistory } from "../../src/session/prompt-history.js";
import { App } from "../../src/ui/app/app.js";
import { TranscriptStore } from "../../src/ui/state/transcript-store.js";
import { transcriptFromLog } from "../../src/ui/state/history-from-log.js";
import { initialTranscript } from "../../src/ui/state/transcript-types.js";
import { plainTheme } from "../../src/ui/theme.js";
import { renderTui } from "../support/render-tui.js";
import { hang, text, toolCall } from "../support/scripted-server.js";
import { useAppHarness } from "../support/app-harness.js";

const { start: startApp } = useAppHarness();

describe("the app with the real engine", () => {
  it("sends a prompt and shows the streamed answer", async () => {
    const { host, tui } = await startApp();
    host.server.enqueue(text("The answer is **42**.", { chunkSize: 3 }));
    tui.bus.type("what is the answer?");
    tui.bus.press("enter");
    const frame = await tui.waitForFrame((current) => current.includes("The answer is 42."));
    expect(frame).toContain("› what is the answer?");
    expect(host.server.completionRequests).toHaveLength(1);
  });

  it("asks before a shell command; 1 approves it and the result is shown", async () => {
    const { host, tui } = await startApp();
    host.server.enqueue(toolCall("bash", { command: "touch made.txt", description: "Make a file" }), text("Made it."));
    tui.bus.type("make a file");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("Do you want to run this command?"));
    expect(tui.frame()).toContain("touch made.txt");
    tui.bus.type("1");
    const frame = await tui.waitForFrame((current) => current.includes("Made it."));
    expect(frame).toContain("✓ Make a file");
    expect(existsSync(path.join(host.cwd, "made.txt"))).toBe(true);
  });

  it("option 4 refuses with a message that reaches the model", async () => {
    const { host, tui } = await startApp();
    host.server.enqueue(toolCall("bash", { command: "rm README.md", description: "Remove" }), text("OK, I kept it."));
    tui.bus.type("remove the readme");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("Do you want to run this command?"));
    tui.bus.type("4");
    await tui.waitForFrame((frame) => frame.includes("Tell agent what to do differently"));
    tui.bus.type("keep it");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("OK, I kept it."));
    const tool = host.server.completionRequests[1]?.body.messages.find((message) => message.role === "tool");
    expect(tool?.content).toBe("The user rejected this tool call. The user said: keep it");
  });

  it("Esc stops a streaming turn", async () => {
    const { host, tui } = await startApp();
    host.server.enqueue({ kind: "stream", text: "A long story that never", chunkSize: 4, hangAfterChunks: 3 });
    tui.bus.type("tell a story");
    tui.bus.press("enter");
    await host.server.waitForHang();
    await tui.waitForFrame((frame) => frame.includes("esc to interrupt"));
    tui.bus.press("escape");
    const frame = await tui.waitForFrame((current) => current.includes("Interrupted."));
    expect(frame).toContain("Ask anything");
  });

  it("queues a prompt typed while the agent works; Esc holds it, Enter sends it", async () => {
    const { host, tui } = await startApp();
    host.server.enqueue(hang(), text("Second answer."));
    tui.bus.type("first");
    tui.bus.press("enter");
    await host.server.waitForRequests(1);
    tui.bus.type("second");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("Queued (1)"));
    tui.bus.press("escape");
    // The stop does not send what was queued behind the user's back: it waits, shown, until Enter.
    await tui.waitForFrame((frame) => frame.includes("held after the interrupt") && frame.includes("↳ second"));
    expect(host.server.completionRequests).toHaveLength(1);
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("Second answer."));
    const last = host.server.completionRequests.at(-1)?.body.messages.at(-1);
    expect(String(last?.content)).toContain("second");
  });

  it("Shift+Tab cycles the mode shown in the footer", async () => {
    const { host, tui } = await startApp();
    tui.bus.press("shift+tab");
    await tui.waitForFrame((frame) => /Plan · Manual Approval/.test(frame));
    tui.bus.press("shift+tab");
    await tui.waitForFrame((frame) => /Autopilot · Manual Approval/.test(frame));
    expect(host.session.mode).toBe("autopilot");
  });

  it("runs slash commands from the registry and says when one does not exist", async () => {
    const { host, tui } = await startApp();
    tui.bus.type("/model other-model");
    tui.bus.press("enter");
    // The endpoint lists only its own model: a name it does not list is refused (issue 7, item 17).
    await tui.waitForFrame((frame) => frame.includes('Unknown model "other-model"'));
    expect(host.session.model).toBe("scripted-model");
    tui.bus.type("/nonsense");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("Unknown command: /nonsense"));
    tui.bus.type("/allow-all on");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("Allow All"));
  });

  it("the footer and /allow-all show name --allow-all-tools and its source; /allow-all off leaves it in force", async () => {
    const { tui } = await startApp({ flags: { allowAllTools: true, allowAllSources: { tools: ["COPILOT_ALLOW_ALL"], paths: [], urls: [] } } });
    await tui.waitForFrame((frame) => frame.includes("Interactive · Allow All Tools ·"));
    tui.bus.type("/allow-all show");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("Every tool call runs without asking (COPILOT_ALLOW_ALL)."));
    tui.bus.type("/allow-all on");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("Interactive · Allow All ·"));
    tui.bus.type("/allow-all off");
    tui.bus.press("enter");
    const frame = await tui.waitForFrame((text) => text.includes("Still in force"));
    expect(frame).toContain("Interactive · Allow All Tools ·");
  });

  it("!cmd runs a shell command and its output goes to the model with the next prompt", async () => {
    const { host, tui } = await startApp();
    tui.bus.type("!echo shell-says-hi");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("shell-says-hi") && frame.includes("✓"));
    host.server.enqueue(text("I saw it."));
    tui.bus.type("what did it print?");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("I saw it."));
    const messages = host.server.completionRequests[0]?.body.messages ?? [];
    expect(
      messages.some((message) => String(message.content).includes("<user_shell_command_output>") && String(message.content).includes("shell-says-hi")),
    ).toBe(true);
  });

  it("Ctrl+C on an empty idle prompt warns, and a second one exits", async () => {
    const exit = vi.fn();
    const { tui } = await startApp({ exit });
    tui.bus.press("ctrl+c");
    await tui.waitForFrame((frame) => frame.includes("Press Ctrl+C again to exit"));
    expect(exit).not.toHaveBeenCalled();
    tui.bus.press("ctrl+c");
    expect(exit).toHaveBeenCalledTimes(1);
  });

  it("Ctrl+C stops a busy turn; pressed again while the stop has not taken effect, it exits", async () => {
    const exit = vi.fn();
    const { host, tui } = await startApp({ exit });
    host.server.enqueue(hang());
    tui.bus.type("wait forever");
    tui.bus.press("enter");
    await host.server.waitForRequests(1);
    // Keep the session busy as if its stop were stuck: the first Ctrl+C interrupts, the second (still busy) exits.
    const session = host.session;
    const realDispatch = session.dispatch.bind(session);
    const interrupts: unknown[] = [];
    const dispatch = vi.spyOn(session, "dispatch").mockImplementation(((command: SessionCommand) => {
      if (command.type === "interrupt") return void interrupts.push(command);
      return realDispatch(command);
    }) as typeof session.dispatch);
    tui.bus.press("ctrl+c");
    expect(interrupts).toHaveLength(1);
    expect(exit).not.toHaveBeenCalled();
    tui.bus.press("ctrl+c");
    expect(exit).toHaveBeenCalledTimes(1);
    dispatch.mockRestore();
    session.dispatch({ type: "interrupt" });
  });

  it("any other key cancels the pending Ctrl+C exit", async () => {
    const exit = vi.fn();
    const { tui } = await startApp({ exit });
    tui.bus.press("ctrl+c");
    await tui.waitForFrame((frame) => frame.includes("Press Ctrl+C again to exit"));
    tui.bus.type("a");
    await tui.waitForFrame((frame) => !frame.includes("Press Ctrl+C again to exit"));
    tui.bus.press("ctrl+c"); // clears the "a"
    tui.bus.press("ctrl+c"); // warns again, does not exit
    await tui.waitForFrame((frame) => frame.includes("Press Ctrl+C again to exit"));
    expect(exit).not.toHaveBeenCalled();
  });

  it("Ctrl+O prints the last tool's whole output into the transcript", async () => {
    const { host, tui } = await startApp();
    tui.bus.type("!seq 1 60");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("✓"));
    tui.bus.press("ctrl+o");
    const frame = await tui.waitForFrame((current) => current.includes("end of output"));
    expect(frame).toContain("── output of ! seq 1 60 ──");
    for (const line of ["\n1\n", "\n30\n", "\n60\n"]) expect(frame).toContain(line);
    expect(host.server.completionRequests).toHaveLength(0);
  });

  it("Ctrl+C with text in the prompt clears it instead", async () => {
    const exit = vi.fn();
    const { tui } = await startApp({ exit });
    tui.bus.type("draft text");
    await tui.waitForFrame((frame) => frame.includes("draft text"));
    tui.bus.press("ctrl+c");
    await tui.waitForFrame((frame) => !frame.includes("draft text"));
    expect(tui.frame()).not.toContain("Press Ctrl+C again");
  });

  it("shows a resumed session's past conversation", async () => {
    const { host } = await startApp();
    host.server.enqueue(text("Remembered answer."));
    await host.session.dispatch({ type: "send", prompt: "an earlier question" });
    const id = host.session.id;
    await host.switchTo(id);
    const store = new TranscriptStore(transcriptFromLog(host.history, initialTranscript({ mode: host.session.mode, model: host.session.model })));
    const view = renderTui(
      <App
        host={host}
        store={store}
        theme={plainTheme}
        history={new MemoryPromptHistory()}
        listFiles={async () => []}
        version="test"
        exit={() => undefined}
        refreshKey={0}
        requestReprint={() => undefined}
      />,
    );
    const frame = await view.waitForFrame((current) => current.includes("Remembered answer."));
    expect(frame).toContain("› an earlier question");
    view.unmount();
  });
});

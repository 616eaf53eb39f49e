/**
 * The interactive TUI end to end, as a person uses it: the real bin/agent in a 100×30 tmux pane, keys sent
 * with send-keys, the screen read with capture-pane, the scripted server as the model. Needs a build
 * (`npm test` builds first) and tmux (skipped without it).
 */
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { AGENT_BIN } from "../support/run-agent.js";
import { gate } from "../support/gate.js";
import { chunksUpTo, text, toolCall, type CompletionRequest, type ScriptedResponse } from "../support/scripted-server.js";
import { childPids, HAS_TMUX, processState, waitUntil, type TmuxPane } from "../support/tmux.js";
import { AGENT_COMMAND as AGENT, idle, sendPrompt, useTmuxAgent } from "../support/tmux-agent.js";

const TURN_MS = 20_000;

let respond: (request: CompletionRequest) => ScriptedResponse | Promise<ScriptedResponse>;
const tt = useTmuxAgent({
  prefix: "tui-tmux",
  historyLimit: 50_000,
  removeRetries: { maxRetries: 10, retryDelay: 100 },
  server: { responder: (request) => respond(request) },
});

const lastLine = (screen: string): string =>
  screen
    .split("\n")
    .filter((line) => line.trim() !== "")
    .at(-1) ?? "";
const contentOf = (message: { content?: unknown } | undefined): string =>
  typeof message?.content === "string" ? message.content : JSON.stringify(message?.content ?? "");
const lastUser = (request: CompletionRequest | undefined): string => contentOf(request?.body.messages.filter((m) => m.role === "user").at(-1));
const toolMessage = (request: CompletionRequest | undefined): string => contentOf(request?.body.messages.find((m) => m.role === "tool"));

/** Start the agent (or a shell line around it: `wrap(agentCommand)`) and wait for its first idle frame. */
const launch = (wrap: (agent: string) => string = (agent) => agent): Promise<TmuxPane> => tt.launch(wrap(AGENT));

/** Occurrences of each `<prefix>NNNN` in a capture. */
function countNumbered(capture: string, prefix: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of capture.matchAll(new RegExp(`${prefix}(\\d{4})\\b`, "g"))) {
    const key = match[1] as string;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function numbered(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${String(i + 1).padStart(4, "0")}`);
}

/** Pids of `sleep <seconds>` processes whose working directory is `dir`. */
function sleepsIn(dir: string, seconds: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8")
        .split("\0")
        .filter((part) => part !== "");
      if (path.basename(argv[0] ?? "") === "sleep" && argv[1] === seconds && readlinkSync(`/proc/${entry}/cwd`) === dir) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

describe.skipIf(!HAS_TMUX)("the TUI in tmux", () => {
  beforeEach(async () => {
    respond = () => text("(no scripted answer for this request)");
  });

  it("shows the streamed answer to a typed prompt as it arrives", { timeout: 60_000 }, async () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    // The stream holds after its first sentence until the test has seen it on screen.
    const seen = gate();
    const answer = `Streaming answer begins. ${words} ANSWER-END`;
    tt.server.enqueue(text(answer, { chunkSize: 4, pauses: [{ afterChunks: chunksUpTo(answer, "begins.", 4), until: seen.opened }] }));
    const p = await launch();
    await sendPrompt(p, "hello agent");
    const partial = await p.waitForText("Streaming answer begins.", { timeoutMs: TURN_MS });
    expect(partial).not.toContain("word0");
    seen.open();
    const done = await p.waitFor((s) => s.includes("ANSWER-END") && idle(s), { timeoutMs: TURN_MS, what: "the whole answer" });
    expect(done).toContain("› hello agent");
    expect(done).toContain("word59");
    expect(lastUser(tt.server.completionRequests[0])).toContain("hello agent");
  });

  // chalk reads any CI variable as "no colour", and Ink loads under CI=0 (so that it draws every frame):
  // chalk must decide its level first, from the environment as it is.
  it("draws in colour", { timeout: 60_000 }, async () => {
    const p = await launch();
    // The first frame may be the plain one drawn before Ink loads; Ink's paint brings the colours.
    const colour = /\u001b\[(3[0-7]|9[0-7]|38;)[0-9;]*m/;
    await waitUntil(async () => colour.test(await p.captureStyled()), TURN_MS, "a coloured frame");
    expect(await p.capture()).toContain("Ask anything");
  });

  it("runs a shell command approved with 1 and shows its result", { timeout: 60_000 }, async () => {
    tt.server.enqueue(toolCall("bash", { command: "echo approved-output > made.txt && cat made.txt", description: "Make a file" }), text("The file is made."));
    const p = await launch();
    await sendPrompt(p, "make a file");
    const dialog = await p.waitForText("Do you want to run this command?", { timeoutMs: TURN_MS });
    expect(dialog).toContain("echo approved-output > made.txt && cat made.txt");
    expect(dialog).toMatch(/1\. Yes/);
    expect(dialog).toMatch(/4\. No, and tell agent what to do differently/);
    expect(existsSync(path.join(tt.cwd, "made.txt"))).toBe(false);
    await p.type("1");
    const done = await p.waitFor((s) => s.includes("The file is made.") && idle(s), { timeoutMs: TURN_MS, what: "the final answer" });
    expect(done).toContain("Make a file");
    expect(done).toContain("approved-output");
    expect(done).not.toContain("Do you want to run this command?");
    expect(readFileSync(path.join(tt.cwd, "made.txt"), "utf8")).toBe("approved-output\n");
    expect(toolMessage(tt.server.completionRequests[1])).toContain("approved-output");
  });

  it("denies a command with 4 and a message, and the model receives the message", { timeout: 60_000 }, async () => {
    tt.server.enqueue(toolCall("bash", { command: "touch denied.txt", description: "Touch a file" }), text("Understood, I will use the Makefile."));
    const p = await launch();
    await sendPrompt(p, "touch a file");
    await p.waitForText("Do you want to run this command?", { timeoutMs: TURN_MS });
    await p.type("4");
    await p.waitForText("Tell agent what to do differently");
    await sendPrompt(p, "use the Makefile instead");
    await p.waitFor((s) => s.includes("Understood, I will use the Makefile.") && idle(s), { timeoutMs: TURN_MS, what: "the answer after the denial" });
    expect(existsSync(path.join(tt.cwd, "denied.txt"))).toBe(false);
    expect(tt.server.completionRequests).toHaveLength(2);
    expect(toolMessage(tt.server.completionRequests[1])).toContain("use the Makefile instead");
  });

  it("exits on a second Ctrl+C, printing how to resume", { timeout: 60_000 }, async () => {
    tt.server.enqueue(text("Hi there."));
    // A shell around the agent reports its exit status (tmux here does not reliably reap the pane's child).
    const p = await launch((agent) => `${agent}; echo "AGENT-EXIT=$?"`);
    const agentPid = childPids((await p.info()).pid).find((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(AGENT_BIN));
    expect(agentPid).toBeDefined();
    await sendPrompt(p, "hi");
    await p.waitFor((s) => s.includes("Hi there.") && idle(s), { timeoutMs: TURN_MS, what: "the answer" });
    await p.sendKeys("C-c");
    expect(lastLine(await p.waitForText("Press Ctrl+C again to exit"))).toMatch(/Press Ctrl\+C again to exit/);
    await p.sendKeys("C-c");
    const screen = await p.waitForText("AGENT-EXIT=");
    expect(screen).toContain("AGENT-EXIT=0");
    const id = /Resume this session with: agent --resume ([0-9a-f-]{36})/.exec(screen)?.[1];
    expect(id).toBeDefined();
    expect(existsSync(path.join(tt.home, "session-state", id as string, "events.jsonl"))).toBe(true);
    expect(processState(agentPid as number)).toBe("gone");
  });

  it("leaves the terminal settings as they were (stty -g before = after)", { timeout: 60_000 }, async () => {
    tt.server.enqueue(text("Noted."));
    const p = await launch((agent) => `stty -g > stty-before.txt; ${agent}; code=$?; stty -g > stty-after.txt; echo "STTY-DONE $code"`);
    await sendPrompt(p, "note this");
    await p.waitFor((s) => s.includes("Noted.") && idle(s), { timeoutMs: TURN_MS, what: "the answer" });
    await p.sendKeys("C-c");
    await p.waitForText("Press Ctrl+C again to exit");
    await p.sendKeys("C-c");
    await p.waitForText("STTY-DONE 0");
    const before = readFileSync(path.join(tt.cwd, "stty-before.txt"), "utf8");
    expect(before.trim()).not.toBe("");
    expect(readFileSync(path.join(tt.cwd, "stty-after.txt"), "utf8")).toBe(before);
  });

  it("puts a 2,000-paragraph streamed answer in the scrollback exactly once", { timeout: 120_000 }, async () => {
    const lines = numbered("line ", 2000);
    tt.server.enqueue(text(`${lines.join("\n\n")}\n\nLONG-END`, { chunkSize: 16 }));
    const p = await launch();
    await sendPrompt(p, "count to 2000");
    await p.waitFor((s) => s.includes("LONG-END") && idle(s), { timeoutMs: 60_000, what: "the end of the long answer" });
    const counts = countNumbered(await p.captureAll(), "line ");
    const wrong = lines.map((line) => line.slice(5)).filter((n) => counts.get(n) !== 1);
    expect(wrong.map((n) => `${n}×${counts.get(n) ?? 0}`).slice(0, 20)).toEqual([]);
  });

  it("puts a 2,000-line streamed code block in the scrollback exactly once", { timeout: 120_000 }, async () => {
    const lines = numbered("code ", 2000);
    tt.server.enqueue(text(`Here it is:\n\n\`\`\`text\n${lines.join("\n")}\n\`\`\`\n\nCODE-END`, { chunkSize: 16 }));
    const p = await launch();
    await sendPrompt(p, "print 2000 lines of code");
    await p.waitFor((s) => s.includes("CODE-END") && idle(s), { timeoutMs: 60_000, what: "the end of the code block" });
    const counts = countNumbered(await p.captureAll(), "code ");
    const wrong = lines.map((line) => line.slice(5)).filter((n) => counts.get(n) !== 1);
    expect(wrong.map((n) => `${n}×${counts.get(n) ?? 0}`).slice(0, 20)).toEqual([]);
  });

  it("stops a running `sleep 3600` on Esc: idle again, the process gone", { timeout: 60_000 }, async () => {
    // The command would run for an hour: the prompt is idle again only because Esc ended it.
    tt.server.enqueue(toolCall("bash", { command: "sleep 3600 && touch slept.txt", description: "Sleep a while" }), text("Carrying on."));
    const p = await launch();
    await sendPrompt(p, "sleep please");
    await p.waitForText("Do you want to run this command?", { timeoutMs: TURN_MS });
    await p.type("1");
    await waitUntil(() => sleepsIn(tt.cwd, "3600").length > 0, TURN_MS, "the sleep process to start");
    const sleeps = sleepsIn(tt.cwd, "3600");
    await p.waitForText("Sleep a while");
    await p.sendKeys("Escape");
    await p.waitFor(idle, { timeoutMs: TURN_MS, what: "an idle prompt after Esc" });
    await waitUntil(() => sleeps.every((pid) => processState(pid) !== "running"), TURN_MS, "the sleep process to be gone");
    expect(sleepsIn(tt.cwd, "3600").filter((pid) => processState(pid) === "running")).toEqual([]);
    expect(existsSync(path.join(tt.cwd, "slept.txt"))).toBe(false);
    expect((await p.info()).dead).toBe(false);
    // The history stays valid: the interrupted call has its tool message in the next request, in Copilot's words.
    await sendPrompt(p, "go on");
    await p.waitFor((s) => s.includes("Carrying on.") && idle(s), { timeoutMs: TURN_MS, what: "the next answer" });
    expect(tt.server.completionRequests).toHaveLength(2);
    expect(toolMessage(tt.server.completionRequests[1])).toBe("The execution of this tool, or a previous tool was interrupted.");
  });

  it("queues a prompt typed while busy and sends it when the turn ends", { timeout: 60_000 }, async () => {
    const firstAnswer = gate();
    respond = async (request) => {
      if (request.index === 0) {
        await firstAnswer.opened;
        return text("First answer.");
      }
      return text(`Second answer to: ${lastUser(request).split("\n").at(-1) ?? ""}`);
    };
    const p = await launch();
    await sendPrompt(p, "first question");
    await tt.server.waitForRequests(1, { timeoutMs: TURN_MS });
    await p.waitForText("esc to interrupt");
    await sendPrompt(p, "second question");
    const queued = await p.waitForText("Queued (1)");
    expect(queued).toContain("↳ second question");
    expect(tt.server.completionRequests).toHaveLength(1);
    firstAnswer.open();
    const done = await p.waitFor((s) => s.includes("Second answer to: second question") && idle(s), { timeoutMs: TURN_MS, what: "the second answer" });
    expect(done).toContain("First answer.");
    expect(done).not.toContain("Queued (");
    expect(tt.server.completionRequests).toHaveLength(2);
    expect(lastUser(tt.server.completionRequests[1])).toContain("second question");
  });

  it("cycles the mode with Shift+Tab: Interactive → Plan → Autopilot, even right after the first frame", { timeout: 60_000 }, async () => {
    tt.server.enqueue(toolCall("task_complete", { summary: "All set." }));
    const p = await launch();
    // Pressed at once: the session may still be opening; the choice is kept and applied when it is.
    await p.sendKeys("BTab");
    await p.waitFor((s) => lastLine(s).startsWith("Plan"), { what: "the footer to say Plan" });
    await p.sendKeys("BTab");
    await p.waitFor((s) => lastLine(s).startsWith("Autopilot"), { what: "the footer to say Autopilot" });
    // The engine is in autopilot too: the model is offered task_complete.
    await sendPrompt(p, "do it");
    await p.waitFor((s) => s.includes("All set.") && idle(s), { timeoutMs: TURN_MS, what: "the task to complete" });
    const tools = (tt.server.completionRequests[0]?.body.tools ?? []) as { function: { name: string } }[];
    expect(tools.map((tool) => tool.function.name)).toContain("task_complete");
  });

  it("resumes a session below what the shell printed before, without clearing the scrollback", { timeout: 60_000 }, async () => {
    tt.server.enqueue(text("An answer worth remembering."));
    const first = await launch();
    await sendPrompt(first, "remember this");
    await first.waitFor((s) => s.includes("An answer worth remembering.") && idle(s), { timeoutMs: TURN_MS, what: "the answer" });
    await first.sendKeys("C-c");
    await first.sendKeys("C-c");
    const exited = await first.waitFor((s) => /agent --resume ([0-9a-f-]{36})/.test(s), { what: "the resume line" });
    const id = /agent --resume ([0-9a-f-]{36})/.exec(exited)?.[1] as string;
    await first.close();
    const resumed = await launch((agent) => `seq -f 'shell-line %03g' 1 40; ${agent} --resume ${id}`);
    await resumed.waitFor((s) => s.includes("An answer worth remembering."), { what: "the past answer" });
    const all = await resumed.captureAll();
    expect(countNumbered(all.replace(/shell-line (\d{3})/g, "shell-line 0$1"), "shell-line ").size).toBe(40);
    expect(all.indexOf("shell-line 040")).toBeLessThan(all.indexOf("An answer worth remembering."));
    await resumed.close();
    // From the top of a fresh screen: the last exchange is in the first frame, drawn before the TUI loads, and
    // the TUI draws over it; once the session is open, the scrollback holds the header and the exchange once.
    const top = await launch((agent) => `clear; ${agent} --resume ${id}`);
    const open = await top.waitFor((s) => s.includes("An answer worth remembering.") && idle(s) && !s.includes("Starting…"), { what: "the open session" });
    const everything = await top.captureAll();
    expect(everything.split("An answer worth remembering.").length - 1).toBe(1);
    expect(everything.split("? for help, / for commands").length - 1).toBe(1);
    expect(everything.split("remember this").length - 1).toBe(1);
    expect(open.indexOf("remember this")).toBeLessThan(open.indexOf("An answer worth remembering."));
  });

  it("shows a 50-line bracketed paste as a chip and sends all of it", { timeout: 60_000 }, async () => {
    const pasted = Array.from({ length: 50 }, (_, i) => `pasted line ${String(i + 1).padStart(2, "0")}`).join("\n");
    tt.server.enqueue(text("Got your paste."));
    const p = await launch();
    await p.paste(pasted);
    await p.waitForText("[Paste #1 – 50 lines]");
    expect(await p.capture()).not.toContain("pasted line 02");
    await p.type(" summarise it");
    await p.waitForText("summarise it");
    await p.sendKeys("Enter");
    await p.waitFor((s) => s.includes("Got your paste.") && idle(s), { timeoutMs: TURN_MS, what: "the answer" });
    const sent = lastUser(tt.server.completionRequests[0]);
    expect(sent).toContain(pasted);
    expect(sent).toContain("summarise it");
  });

  it("re-wraps across resizes (100 → 60 → 100 columns) mid-stream without duplicating lines", { timeout: 90_000 }, async () => {
    const lines = numbered("rline ", 120).map((line) => `${line} ${"lorem ipsum dolor sit amet ".repeat(3).trim()}`);
    const answer = `${lines.join("\n\n")}\n\nRESIZE-END`;
    // The stream holds after lines 10 and 40 until the terminal has been resized: mid-stream however slow the machine.
    const [narrowed, widened] = [gate(), gate()];
    const pauses = [
      { afterChunks: chunksUpTo(answer, "rline 0011", 12), until: narrowed.opened },
      { afterChunks: chunksUpTo(answer, "rline 0041", 12), until: widened.opened },
    ];
    tt.server.enqueue(text(answer, { chunkSize: 12, pauses }));
    const p = await launch();
    await sendPrompt(p, "stream while I resize");
    // The TUI reprints a moment after a resize (debounced); the reprint breaks the 93-column line 10 at the
    // width (tmux's own reflow only soft-wraps it, which -J joins back): that is when to let the stream go on.
    const line10 = (all: string): string => all.split("\n").find((row) => row.includes("rline 0010")) ?? "";
    await p.waitForText("rline 0010", { timeoutMs: TURN_MS, all: true });
    await p.resize(60);
    await p.waitFor((all) => line10(all) !== "" && line10(all).length <= 60, { timeoutMs: TURN_MS, all: true, what: "the reprint at 60 columns" });
    narrowed.open();
    await p.waitForText("rline 0040", { timeoutMs: TURN_MS, all: true });
    await p.resize(100);
    await p.waitFor((all) => line10(all).length > 60, { timeoutMs: TURN_MS, all: true, what: "the reprint at 100 columns" });
    widened.open();
    await p.waitFor((s) => s.includes("RESIZE-END") && idle(s), { timeoutMs: TURN_MS, what: "the end of the answer" });
    expect((await p.info()).width).toBe(100);
    const counts = countNumbered(await p.captureAll(), "rline ");
    const twice = [...counts].filter(([, n]) => n > 1).map(([k, n]) => `${k}×${n}`);
    expect(twice).toEqual([]);
    const missing = lines.map((line) => line.slice(6, 10)).filter((n) => !counts.has(n));
    expect(missing).toEqual([]);
  });
});

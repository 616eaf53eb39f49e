/**
 * Issue 7's TUI items in a real terminal (tmux): typeahead during start-up, a live area that fits a small
 * screen, hostile escape sequences that never reach the terminal. Needs a build and tmux.
 */
import { describe, expect, it } from "vitest";
import { text, toolCall, type CompletionRequest } from "../support/scripted-server.js";
import { HAS_TMUX, waitUntil, type TmuxPane } from "../support/tmux.js";
import { AGENT_COMMAND as AGENT, idle, useTmuxAgent } from "../support/tmux-agent.js";

const START_MS = 20_000;
const TURN_MS = 20_000;

const tt = useTmuxAgent({ prefix: "tui-trust" });

const contentOf = (message: { content?: unknown } | undefined): string =>
  typeof message?.content === "string" ? message.content : JSON.stringify(message?.content ?? "");
const lastUser = (request: CompletionRequest | undefined): string => contentOf(request?.body.messages.filter((m) => m.role === "user").at(-1));

function open(size: { width?: number; height?: number } = {}): Promise<TmuxPane> {
  return tt.open(AGENT, size);
}

describe.skipIf(!HAS_TMUX)("the TUI in tmux: issue 7", () => {
  it("keeps a prompt typed and entered before the first frame, and sends it as typed", { timeout: 60_000 }, async () => {
    tt.server.enqueue(text("Got your early prompt."));
    const p = await open();
    // Straight away: the agent has not drawn anything yet (node is still starting).
    await p.type("typed before the banner");
    await p.sendKeys("Enter");
    await waitUntil(() => tt.server.completionRequests.length > 0, TURN_MS, "the early prompt to reach the model");
    expect(lastUser(tt.server.completionRequests[0])).toContain("typed before the banner");
    const screen = await p.waitFor((s) => s.includes("Got your early prompt.") && idle(s), { timeoutMs: TURN_MS, what: "the answer" });
    expect(screen).toContain("› typed before the banner");
    // Nothing was left behind in the prompt (the Enter was not a newline).
    expect(screen).toContain("› Ask anything");
  });

  it("fits a permission dialog for a long command in a 60×20 terminal: title, question and choices stay visible", { timeout: 60_000 }, async () => {
    const words = Array.from({ length: 120 }, (_, i) => `w${i}`).join(" ");
    tt.server.enqueue(toolCall("bash", { command: `echo ${words} > long-output.txt`, description: "Write-a-long-line" }), text("Stopped."));
    const p = await open({ width: 60, height: 20 });
    await p.waitFor(idle, { timeoutMs: START_MS, what: "the first idle prompt" });
    await p.type("write it");
    await p.sendKeys("Enter");
    const screen = await p.waitForText("Do you want to run this command?", { timeoutMs: TURN_MS });
    expect(screen).toContain("Write-a-long-line");
    expect(screen).toMatch(/1\. Yes/);
    expect(screen).toMatch(/4\. No/);
    expect(screen).toMatch(/more lines/);
    // All on one 20-row screen: nothing of the dialog scrolled away, and the footer is there too.
    expect(screen).toContain("Manual Approval");
    // PgDn scrolls the command: its end comes into view.
    await p.sendKeys("NPage");
    await p.sendKeys("NPage");
    await p.sendKeys("NPage");
    const scrolled = await p.waitForText("long-output.txt", { timeoutMs: TURN_MS });
    expect(scrolled).toContain("Write-a-long-line");
    await p.sendKeys("Escape");
    await p.waitFor(idle, { timeoutMs: TURN_MS, what: "idle after the denial" });
  });

  it("shows a hostile answer without letting it clear the screen or set the window title", { timeout: 60_000 }, async () => {
    tt.server.enqueue(
      text("Safe start \u001b[2J\u001b[3J\u001b[H\u001b]2;PWNED-TITLE\u0007\u001b]8;;https://evil.example/\u001b\\link\u001b]8;;\u001b\\ safe end"),
    );
    const p = await open();
    await p.waitFor(idle, { timeoutMs: START_MS, what: "the first idle prompt" });
    await p.type("say something");
    await p.sendKeys("Enter");
    const screen = await p.waitFor((s) => s.includes("safe end") && idle(s), { timeoutMs: TURN_MS, what: "the answer" });
    // Had ESC[2J reached the terminal, the prompt above the answer would be gone.
    expect(screen).toContain("› say something");
    expect(screen).toContain("Safe start");
    expect(screen).toContain("link");
    const title = await tt.tmux.tmux(["display-message", "-p", "-t", p.target, "#{pane_title}"]);
    expect(title).not.toContain("PWNED-TITLE");
  });

  it("shows the model's single newlines as line breaks, and wraps long code lines inside the block", { timeout: 60_000 }, async () => {
    const code = `    const value = "${"x".repeat(70)}";`;
    tt.server.enqueue(text(`Roses are red\nViolets are blue\n\n\`\`\`\n${code}\n\`\`\`\nDONE-MARK`));
    const p = await open({ width: 60, height: 30 });
    await p.waitFor(idle, { timeoutMs: START_MS, what: "the first idle prompt" });
    await p.type("a poem");
    await p.sendKeys("Enter");
    const screen = await p.waitFor((s) => s.includes("DONE-MARK") && idle(s), { timeoutMs: TURN_MS, what: "the answer" });
    const lines = screen.split("\n");
    expect(lines).toContain("Roses are red");
    expect(lines).toContain("Violets are blue");
    // The code line is cut in two, the second part indented like the first (not at column 0).
    const first = lines.findIndex((line) => line.includes("const value"));
    expect(first).toBeGreaterThan(-1);
    expect(lines[first + 1]).toMatch(/^ {6}x+/);
  });

  it("keeps the /help overlay inside a 60×20 screen: its title stays in view, nothing is drawn twice", { timeout: 60_000 }, async () => {
    const p = await open({ width: 60, height: 20 });
    await p.waitFor(idle, { timeoutMs: START_MS, what: "the first idle prompt" });
    await p.type("/help");
    await p.waitForText("/help");
    await p.sendKeys("Enter");
    const screen = await p.waitFor((s) => /│ Help\s/.test(s), { timeoutMs: TURN_MS, what: "the help overlay" });
    expect(screen).toContain("Manual Approval");
    // The banner was printed once: a full-screen repaint would have put a second copy in the scrollback.
    const all = await p.captureAll();
    expect(all.split("? for help, / for commands").length - 1).toBeLessThanOrEqual(1);
    await p.sendKeys("Escape");
    await p.waitFor((s) => !/│ Help\s/.test(s), { timeoutMs: TURN_MS, what: "the overlay to close" });
  });
});

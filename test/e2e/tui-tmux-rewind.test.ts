/**
 * /rewind in a real terminal (tmux): three prompts change files; /rewind goes back to before the second,
 * and the files are byte for byte as they were after the first (the prompt comes back to edit); going
 * back to the rewind undoes it. Esc Esc on an empty prompt opens the same dialog, whose preview names a
 * file changed by hand since and asks before overwriting it. Needs a build and tmux.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { text, toolCall, type CompletionRequest, type ScriptedResponse } from "../support/scripted-server.js";
import { HAS_TMUX, type TmuxPane } from "../support/tmux.js";
import { AGENT_COMMAND as AGENT, idle, sendPrompt, useTmuxAgent } from "../support/tmux-agent.js";

const TURN_MS = 20_000;

let steps: ScriptedResponse[] = [];
const tt = useTmuxAgent({ prefix: "tui-rewind", server: { responder: (request: CompletionRequest) => steps[request.index] ?? text("(unscripted)") } });

/** Contents no editor would keep by accident: CRLF lines, trailing spaces, no final newline, non-ASCII. */
const A0 = "alpha  \r\nbeta\tγ\r\nend";
const C0 = "ceci\n\n  n'est pas\u00a0une pipe";

async function turn(pane: TmuxPane, prompt: string, answer: string): Promise<void> {
  await sendPrompt(pane, prompt);
  await pane.waitFor((screen) => screen.includes(answer) && idle(screen), { timeoutMs: TURN_MS, what: answer });
}

const read = (file: string) => readFileSync(path.join(tt.cwd, file));

describe.skipIf(!HAS_TMUX)("/rewind in tmux", () => {
  beforeEach(() => {
    steps = [];
  });

  it("undoes the last two prompts' edits byte for byte, gives the prompt back, and undoes the rewind", { timeout: 120_000 }, async () => {
    writeFileSync(path.join(tt.cwd, "a.txt"), A0);
    writeFileSync(path.join(tt.cwd, "c.txt"), C0);
    steps = [
      toolCall("edit", { path: "a.txt", old_str: "beta", new_str: "BETA" }),
      text("First done."),
      toolCall("edit", { path: "a.txt", old_str: "alpha", new_str: "ALPHA" }),
      toolCall("create", { path: "b.txt", file_text: "made by two\n" }),
      text("Second done."),
      toolCall("edit", { path: "c.txt", old_str: "pipe", new_str: "PIPE" }),
      text("Third done."),
    ];
    const pane = await tt.launch(`${AGENT} --allow-all-tools`);
    await turn(pane, "first change", "First done.");
    const afterFirst = { a: read("a.txt"), c: read("c.txt") };
    await turn(pane, "second change", "Second done.");
    await turn(pane, "third change", "Third done.");
    expect(read("c.txt").toString()).toContain("PIPE");

    await sendPrompt(pane, "/rewind");
    const list = await pane.waitFor((screen) => screen.includes("Go back to before which point?") && screen.includes("3. “third change”"), {
      what: "the points",
    });
    expect(list).toContain("2. “second change” · 2 files (a.txt, b.txt) +2 −1");
    await pane.sendKeys("Up", "Enter");
    await pane.waitForText("What goes back?");
    await pane.type("1");
    const preview = await pane.waitFor((screen) => screen.includes("Rewind") && screen.includes("delete") && screen.includes("1. Rewind"), {
      what: "the preview",
    });
    expect(preview).toMatch(/restore\s+a\.txt/);
    expect(preview).toMatch(/delete\s+b\.txt/);
    expect(preview).toMatch(/restore\s+c\.txt/);
    expect(preview).toMatch(/Conversation: \d+ events after this point are hidden from the model/);
    await pane.type("1");
    // The prompt it went back before is in the composer, between its two rules, to edit.
    await pane.waitFor((screen) => screen.includes("↶ Rewound the conversation and files") && /─\n› second change\n─/.test(screen), { what: "the rewind" });
    expect(read("a.txt").equals(afterFirst.a)).toBe(true);
    expect(read("c.txt").equals(afterFirst.c)).toBe(true);
    expect(read("c.txt").toString()).toBe(C0);
    expect(existsSync(path.join(tt.cwd, "b.txt"))).toBe(false);
    // Clear the prompt, then undo the rewind.
    await pane.sendKeys("C-c");
    await pane.waitFor(idle, { what: "an empty prompt" });
    await sendPrompt(pane, "/rewind");
    await pane.waitForText("↶ Rewound the conversation and files to before “second change”");
    await pane.sendKeys("Enter");
    await pane.waitForText("What goes back?");
    await pane.type("1");
    await pane.waitForText("1. Rewind");
    await pane.type("1");
    await pane.waitFor(() => read("c.txt").toString().includes("PIPE"), { what: "c.txt back" });
    expect(read("b.txt").toString()).toBe("made by two\n");
    expect(read("a.txt").toString()).toBe(A0.replace("beta", "BETA").replace("alpha", "ALPHA"));
  });

  it("opens with Esc Esc on an empty prompt and keeps a file changed by hand unless told otherwise", { timeout: 90_000 }, async () => {
    writeFileSync(path.join(tt.cwd, "a.txt"), "agent\n");
    writeFileSync(path.join(tt.cwd, "mine.txt"), "original\n");
    steps = [
      toolCall("edit", { path: "a.txt", old_str: "agent", new_str: "agent changed" }),
      toolCall("edit", { path: "mine.txt", old_str: "original", new_str: "by the agent" }),
      text("Both changed."),
    ];
    const pane = await tt.launch(`${AGENT} --allow-all-tools`);
    await turn(pane, "change both", "Both changed.");
    writeFileSync(path.join(tt.cwd, "mine.txt"), "edited by hand\n");
    await pane.sendKeys("Escape", "Escape");
    await pane.waitForText("Go back to before which point?");
    await pane.sendKeys("Enter");
    await pane.waitForText("What goes back?");
    await pane.type("1");
    const preview = await pane.waitForText("changed since the agent's last change");
    expect(preview).toMatch(/restore\s+mine\.txt.*changed since the agent's last change/);
    expect(preview).toContain("1. Rewind, and keep the 1 file changed since as they are");
    expect(preview).toContain("2. Rewind, and overwrite those changes too");
    await pane.type("1");
    await pane.waitForText("kept 1 file (mine.txt) changed since");
    expect(read("mine.txt").toString()).toBe("edited by hand\n");
    expect(read("a.txt").toString()).toBe("agent\n");
  });
});

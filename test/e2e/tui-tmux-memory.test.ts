/**
 * Memory in the real TUI (tmux), as a new user meets it: with memory on in settings.json, the model asks to
 * store a fact and the dialog shows it; /memory edit hands the terminal to $EDITOR and takes it back; and
 * when the person leaves after three prompts, a detached rem-agent consolidates the session, its own log naming
 * the parent. The test waits for that child's log to end, not for a time.
 */
import { chmodSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MemorySpace } from "../../src/memory/memory-space.js";
import { text, toolCall, type CompletionRequest, type ScriptedResponse } from "../support/scripted-server.js";
import { HAS_TMUX, shellQuote, waitUntil } from "../support/tmux.js";
import { AGENT_COMMAND as AGENT, idle, sendPrompt, useTmuxAgent } from "../support/tmux-agent.js";

const TURN_MS = 20_000;
const queue: (ScriptedResponse | ((request: CompletionRequest) => ScriptedResponse))[] = [];
const tt = useTmuxAgent({
  prefix: "tui-memory",
  removeRetries: { maxRetries: 10, retryDelay: 100 },
  server: {
    responder: (request) => {
      const next = queue.shift() ?? text("(nothing scripted)");
      return typeof next === "function" ? next(request) : next;
    },
  },
});

const log = (id: string): string => {
  try {
    return readFileSync(path.join(tt.home, "session-state", id, "events.jsonl"), "utf8");
  } catch {
    return "";
  }
};

describe.skipIf(!HAS_TMUX)("memory in the TUI (tmux)", () => {
  it("asks before storing, edits in $EDITOR, and consolidates detached after three prompts", { timeout: 90_000 }, async () => {
    queue.length = 0;
    writeFileSync(path.join(tt.home, "settings.json"), `${JSON.stringify({ memory: { enabled: true } })}\n`);
    // The "editor": appends one memory line to the file it is given, as a person would type it.
    const editor = path.join(tt.home, "editor.sh");
    const line = JSON.stringify({ id: "m-0000beef", subject: "style", fact: "Tabs, not spaces." });
    writeFileSync(editor, `#!/bin/sh\nprintf '%s\\n' ${shellQuote(line)} >> "$1"\n`);
    chmodSync(editor, 0o755);

    queue.push(toolCall("store_memory", { subject: "tests", fact: "Run the tests with make check.", citations: "Makefile:4" }), text("Stored it."));
    const pane = await tt.launch(`EDITOR=${shellQuote(editor)} ${AGENT}`);
    await sendPrompt(pane, "remember how the tests run");
    const dialog = await pane.waitForText("Do you want to store this memory?", { timeoutMs: TURN_MS });
    expect(dialog).toContain("Remember: tests");
    expect(dialog).toContain("Run the tests with make check.");
    await pane.sendKeys("Enter");
    await pane.waitFor((s) => s.includes("Stored it.") && idle(s), { timeoutMs: TURN_MS, what: "the answer after storing" });

    await sendPrompt(pane, "/memory edit");
    await pane.waitFor((s) => s.includes("Edited") && idle(s), { timeoutMs: TURN_MS, what: "the TUI back from the editor" });
    const space = new MemorySpace(tt.home, tt.cwd);
    expect(space.read().records.map((record) => record.fact)).toEqual(["Run the tests with make check.", "Tabs, not spaces."]);

    queue.push(text("Second answer."), text("Third answer."));
    await sendPrompt(pane, "second prompt");
    await pane.waitFor((s) => s.includes("Second answer.") && idle(s), { timeoutMs: TURN_MS, what: "the second answer" });
    await sendPrompt(pane, "third prompt");
    await pane.waitFor((s) => s.includes("Third answer.") && idle(s), { timeoutMs: TURN_MS, what: "the third answer" });

    // What the detached rem-agent will be told, in order.
    queue.push(toolCall("session_digest", {}), toolCall("context_board", { command: "prune", ids: ["m-0000beef"], reason: "never said" }), text("Pruned one."));
    await sendPrompt(pane, "/exit");
    const screen = await pane.waitForText("Resume this session with", { timeoutMs: TURN_MS });
    const parent = /agent --resume ([0-9a-f-]{36})/.exec(screen)?.[1] as string;
    const child = () => readdirSync(path.join(tt.home, "session-state")).find((id) => id !== parent) ?? "none";
    await waitUntil(() => log(child()).includes('"type":"session.shutdown"'), 30_000, "the detached rem-agent's session to end");
    const start = JSON.parse(log(child()).split("\n")[0] as string) as { data: { detachedFromSpawningParentSessionId?: string } };
    expect(start.data.detachedFromSpawningParentSessionId).toBe(parent);
    expect(readdirSync(path.join(tt.home, "session-state", parent))).toContain("memory-consolidation.json");
    expect(space.read().records.map((record) => record.id)).not.toContain("m-0000beef");
    expect(space.read().records).toHaveLength(1);
  });
});

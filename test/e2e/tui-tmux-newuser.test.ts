/**
 * What a new user hit in the TUI, in a real terminal (tmux): `agent "prompt"` and `agent -i "prompt"` start
 * the TUI and send the prompt at once, as if typed, then stay open for the next one; `!ls -la` shows its
 * output, not only its first line. Needs a build and tmux.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { text, type CompletionRequest } from "../support/scripted-server.js";
import { HAS_TMUX, shellQuote, waitUntil } from "../support/tmux.js";
import { AGENT_COMMAND as AGENT, idle, sendPrompt, useTmuxAgent } from "../support/tmux-agent.js";

const TURN_MS = 20_000;

const tt = useTmuxAgent({ prefix: "tui-first" });

const lastUser = (request: CompletionRequest | undefined): string => {
  const content = request?.body.messages.filter((message) => message.role === "user").at(-1)?.content;
  return typeof content === "string" ? content : JSON.stringify(content ?? "");
};

describe.skipIf(!HAS_TMUX)("the TUI started with a prompt", () => {
  it.each([
    ["as the only argument", (prompt: string) => `${AGENT} ${shellQuote(prompt)}`],
    ["with -i", (prompt: string) => `${AGENT} -i ${shellQuote(prompt)}`],
    // "-p" here is the session's name, but main.ts has already chosen the program bundle a -p run gets, which
    // cannot import() (scripts/build.mjs): it reaches the TUI's ES modules through main.ts.
    ["after an option whose value is -p (the program bundle's way to the TUI)", (prompt: string) => `${AGENT} --name -p ${shellQuote(prompt)}`],
  ])("%s: sends it at once and stays open for the next", { timeout: 60_000 }, async (_how, command) => {
    tt.server.enqueue(text("Here is the first answer."), text("And the second."));
    const p = await tt.open(command("what is in this folder?"));
    await waitUntil(() => tt.server.completionRequests.length > 0, TURN_MS, "the first prompt to reach the model");
    expect(lastUser(tt.server.completionRequests[0])).toContain("what is in this folder?");
    const screen = await p.waitFor((s) => s.includes("Here is the first answer.") && idle(s), { timeoutMs: TURN_MS, what: "the first answer" });
    expect(screen).toContain("› what is in this folder?");
    await sendPrompt(p, "and now?");
    await p.waitFor((s) => s.includes("And the second.") && idle(s), { timeoutMs: TURN_MS, what: "the second answer" });
    expect(tt.server.completionRequests).toHaveLength(2);
    // ↑ brings the first prompt back from the history.
    await p.sendKeys("Up", "Up");
    const recalled = await p.waitFor((s) => !s.includes("› Ask anything") && s.split("what is in this folder?").length === 3, {
      timeoutMs: TURN_MS,
      what: "the first prompt back in the composer (and once in the transcript)",
    });
    expect(recalled).toContain("And the second.");
  });
});

describe.skipIf(!HAS_TMUX)("!cmd in the TUI", () => {
  it("!ls -la shows the listing, every file of it, under the command", { timeout: 60_000 }, async () => {
    for (const name of ["alpha.txt", "beta.txt", "gamma.txt"]) writeFileSync(path.join(tt.cwd, name), `${name}\n`);
    const p = await tt.launch(AGENT);
    await sendPrompt(p, "!ls -la");
    const screen = await p.waitFor((s) => s.includes("exited with exit code 0") && idle(s), { timeoutMs: TURN_MS, what: "the listing" });
    const lines = screen.split("\n");
    const at = lines.findIndex((line) => line.includes("✓ ! ls -la"));
    expect(at).toBeGreaterThanOrEqual(0);
    const below = lines.slice(at + 1, at + 8).join("\n");
    expect(below).toMatch(/└ total \d+/);
    for (const name of ["alpha.txt", "beta.txt", "gamma.txt"]) expect(below).toContain(name);
    expect(tt.server.completionRequests).toHaveLength(0);
  });
});

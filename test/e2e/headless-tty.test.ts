/**
 * `agent -p` with stdout on a real terminal (tmux): the answer streams, and an attempt cut off mid-stream
 * and retried is erased, so the screen keeps only the answer that completed.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AGENT_BIN } from "../support/run-agent.js";
import { httpError, text } from "../support/scripted-server.js";
import { HAS_TMUX, shellQuote, TmuxServer } from "../support/tmux.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";

const ws = useE2eWorkspace({ prefix: "tty" });
let tmux: TmuxServer;
beforeEach(async () => {
  tmux = await TmuxServer.start();
  writeFileSync(path.join(ws.home, "settings.json"), JSON.stringify({ provider: { retry: { baseDelayMs: 1, maxDelayMs: 5 } } }));
});
// Registered after the workspace's: vitest runs after-hooks as a stack, so tmux goes before the server.
afterEach(async () => {
  await tmux.kill();
});

/** `agent -p hi` between two echoes on a 40×20 terminal; the screen once the run has ended. */
async function printOnTerminal(): Promise<string> {
  const command = `echo BEFORE; ${shellQuote(process.execPath)} ${shellQuote(AGENT_BIN)} -p hi 2>/dev/null; echo AFTER-$?`;
  const pane = await tmux.open(command, { cwd: ws.cwd, env: ws.env(), width: 40, height: 20 });
  await pane.waitFor((content) => /AFTER-\d/.test(content), { what: "the run to end" });
  const screen = await pane.captureAll();
  await pane.close();
  return screen;
}

describe.skipIf(!HAS_TMUX)("agent -p on a terminal", () => {
  it("erases a retried attempt's partial text, keeping the completed answer", { timeout: 60_000 }, async () => {
    ws.server.enqueue(
      { kind: "stream", text: "First line of a PARTIAL answer\nsecond PARTIAL line that is cut", chunkSize: 6, dropAfterChunks: 8 },
      text("The full answer.\nIn two lines."),
    );
    const screen = await printOnTerminal();
    expect(screen).not.toContain("PARTIAL");
    expect(screen).toMatch(/BEFORE\nThe full answer\.\nIn two lines\.\nAFTER-0/);
  });
});

describe.skipIf(!HAS_TMUX)("agent -p on a terminal, failing for good", () => {
  it("erases the partial text of the last attempt too", { timeout: 60_000 }, async () => {
    writeFileSync(path.join(ws.home, "settings.json"), JSON.stringify({ provider: { retry: { maxRetries: 0 } } }));
    ws.server.enqueue({ kind: "stream", text: "A PARTIAL answer", chunkSize: 4, dropAfterChunks: 3 });
    const screen = await printOnTerminal();
    expect(screen).not.toContain("PARTIAL");
    expect(screen).toMatch(/BEFORE\nAFTER-3/);
  });
});

describe.skipIf(!HAS_TMUX)("the TUI's resume hint", () => {
  it("is left out when the model never answered (401)", { timeout: 60_000 }, async () => {
    ws.server.enqueue(httpError(401, { message: "bad key" }));
    const command = `${shellQuote(process.execPath)} ${shellQuote(AGENT_BIN)}; echo AGENT-EXIT=$?`;
    const pane = await tmux.open(command, { cwd: ws.cwd, env: { ...ws.env(), TERM: "tmux-256color" }, width: 100, height: 30 });
    await pane.waitForText("Ask anything", { timeoutMs: 20_000 });
    await pane.type("hi");
    await pane.waitForText("hi");
    await pane.sendKeys("Enter");
    await pane.waitForText("Authentication failed", { timeoutMs: 20_000 });
    await pane.sendKeys("C-d");
    const screen = await pane.waitForText("AGENT-EXIT=", { timeoutMs: 20_000 });
    expect(screen).not.toContain("Resume this session");
    await pane.close();
  });
});

/**
 * Issue 7's TUI items in a real terminal (tmux): typeahead during start-up, a live area that fits a small
 * screen, hostile escape sequences that never reach the terminal. Needs a build and tmux.
 */
import { rmSync } from "node:fs";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../support/engine-harness.js";
import { AGENT_BIN, agentEnv } from "../support/run-agent.js";
import { startScriptedServer, text, toolCall, type CompletionRequest, type ScriptedServer } from "../support/scripted-server.js";
import { HAS_TMUX, shellQuote, TmuxServer, waitUntil, type TmuxPane } from "../support/tmux.js";

const AGENT = `${shellQuote(process.execPath)} ${shellQuote(AGENT_BIN)}`;
const START_MS = 20_000;
const TURN_MS = 20_000;

let tmux: TmuxServer;
let server: ScriptedServer;
let home: string;
let cwd: string;
let pane: TmuxPane | undefined;

const idle = (screen: string): boolean => screen.includes("› Ask anything") && !screen.includes("esc to interrupt");
const contentOf = (message: { content?: unknown } | undefined): string =>
  typeof message?.content === "string" ? message.content : JSON.stringify(message?.content ?? "");
const lastUser = (request: CompletionRequest | undefined): string => contentOf(request?.body.messages.filter((m) => m.role === "user").at(-1));

function open(size: { width?: number; height?: number } = {}): Promise<TmuxPane> {
  const env = agentEnv({ home, baseUrl: server.baseUrl, model: "demo" });
  return tmux.open(AGENT, { cwd, env: { ...env, TERM: "tmux-256color" }, ...size }).then((opened) => (pane = opened));
}

describe.skipIf(!HAS_TMUX)("the TUI in tmux: issue 7", () => {
  beforeAll(async () => {
    tmux = await TmuxServer.start();
  });
  afterAll(async () => {
    await tmux?.kill();
  });
  beforeEach(async () => {
    server = await startScriptedServer({ model: "demo" });
    home = tempDir("tui-trust-home-");
    cwd = tempDir("tui-trust-cwd-");
  });
  afterEach(async () => {
    await pane?.close();
    pane = undefined;
    await server.close();
    for (const dir of [home, cwd]) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  });

  it("keeps a prompt typed and entered before the first frame, and sends it as typed", { timeout: 60_000 }, async () => {
    server.enqueue(text("Got your early prompt."));
    const p = await open();
    // Straight away: the agent has not drawn anything yet (node is still starting).
    await p.type("typed before the banner");
    await p.sendKeys("Enter");
    await waitUntil(() => server.completionRequests.length > 0, TURN_MS, "the early prompt to reach the model");
    expect(lastUser(server.completionRequests[0])).toContain("typed before the banner");
    const screen = await p.waitFor((s) => s.includes("Got your early prompt.") && idle(s), { timeoutMs: TURN_MS, what: "the answer" });
    expect(screen).toContain("› typed before the banner");
    // Nothing was left behind in the prompt (the Enter was not a newline).
    expect(screen).toContain("› Ask anything");
  });
});

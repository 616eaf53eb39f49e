/**
 * The folder-trust question in a real terminal (tmux): the TUI starting in an untrusted folder whose repository
 * has hooks asks once, naming what would run; "always" remembers the folder and the hooks run, "no" keeps them
 * off. The hook only touches a file in the temp folder. Needs a build and tmux.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../support/engine-harness.js";
import { AGENT_BIN, agentEnv } from "../support/run-agent.js";
import { startScriptedServer, text, type ScriptedServer } from "../support/scripted-server.js";
import { HAS_TMUX, shellQuote, TmuxServer, waitUntil, type TmuxPane } from "../support/tmux.js";

const AGENT = `${shellQuote(process.execPath)} ${shellQuote(AGENT_BIN)}`;
const WAIT_MS = 20_000;

let tmux: TmuxServer;
let server: ScriptedServer;
let home: string;
let cwd: string;
let pane: TmuxPane | undefined;

const idle = (screen: string): boolean => screen.includes("› Ask anything") && !screen.includes("esc to interrupt");

describe.skipIf(!HAS_TMUX)("the TUI's folder trust question", () => {
  beforeAll(async () => {
    tmux = await TmuxServer.start();
  });
  afterAll(async () => {
    await tmux?.kill();
  });
  beforeEach(async () => {
    server = await startScriptedServer({ model: "demo" });
    home = tempDir("tui-hooks-home-");
    cwd = tempDir("tui-hooks-cwd-");
    mkdirSync(path.join(cwd, ".git"));
    mkdirSync(path.join(cwd, ".github", "hooks"), { recursive: true });
    writeFileSync(
      path.join(cwd, ".github", "hooks", "mark.json"),
      JSON.stringify({ version: 1, hooks: { userPromptSubmitted: [{ type: "command", bash: "touch repo-hook-ran" }] } }),
    );
  });
  afterEach(async () => {
    await pane?.close();
    pane = undefined;
    await server.close();
    for (const dir of [home, cwd]) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  });

  async function start(): Promise<TmuxPane> {
    const env = agentEnv({ home, baseUrl: server.baseUrl, model: "demo" });
    pane = await tmux.open(AGENT, { cwd, env: { ...env, TERM: "tmux-256color" } });
    return pane;
  }

  async function prompt(p: TmuxPane): Promise<void> {
    server.enqueue(text("Hello back."));
    await p.waitFor(idle, { timeoutMs: WAIT_MS, what: "the prompt" });
    await p.type("hello");
    await p.sendKeys("Enter");
    await waitUntil(() => server.completionRequests.length > 0, WAIT_MS, "the prompt to reach the model");
    await p.waitFor((screen) => screen.includes("Hello back.") && idle(screen), { timeoutMs: WAIT_MS, what: "the answer" });
  }

  it("'always' remembers the folder and the repository's hooks run", { timeout: 60_000 }, async () => {
    const p = await start();
    const screen = await p.waitForText("Do you trust the files in this folder?", { timeoutMs: WAIT_MS });
    expect(screen).toContain("userPromptSubmitted: touch repo-hook-ran (.github/hooks/mark.json)");
    await p.sendKeys("2");
    await prompt(p);
    expect(existsSync(path.join(cwd, "repo-hook-ran"))).toBe(true);
    expect(readFileSync(path.join(home, "config.json"), "utf8")).toContain("trustedFolders");
  });

  it("a bad hook file is named on screen when the TUI starts", { timeout: 60_000 }, async () => {
    rmSync(path.join(cwd, ".github"), { recursive: true, force: true });
    mkdirSync(path.join(home, "hooks"), { recursive: true });
    writeFileSync(path.join(home, "hooks", "broken.json"), "{ not json");
    const p = await start();
    const screen = await p.waitForText("broken.json: not valid JSON", { timeoutMs: WAIT_MS });
    expect(screen).toContain("Hook file skipped");
  });

  it("'no' starts without them", { timeout: 60_000 }, async () => {
    const p = await start();
    await p.waitForText("Do you trust the files in this folder?", { timeoutMs: WAIT_MS });
    await p.sendKeys("3");
    await prompt(p);
    expect(existsSync(path.join(cwd, "repo-hook-ran"))).toBe(false);
    expect(existsSync(path.join(home, "config.json"))).toBe(false);
  });
});

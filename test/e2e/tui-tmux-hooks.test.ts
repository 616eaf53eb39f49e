/**
 * The folder-trust question in a real terminal (tmux): the TUI starting in an untrusted folder whose repository
 * has hooks or MCP servers asks once, naming what would run; "always" remembers the folder and the hooks run,
 * "this session" starts them without remembering, "no" keeps them off. The hook only touches a file in the
 * temp folder; the server is the test MCP server. Needs a build and tmux.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { text } from "../support/scripted-server.js";
import { HAS_TMUX, waitUntil, type TmuxPane } from "../support/tmux.js";
import { AGENT_COMMAND as AGENT, idle, useTmuxAgent } from "../support/tmux-agent.js";
import { stdioServer } from "../mcp/mcp-support.js";

const WAIT_MS = 20_000;

const tt = useTmuxAgent({ prefix: "tui-hooks" });

describe.skipIf(!HAS_TMUX)("the TUI's folder trust question", () => {
  beforeEach(async () => {
    mkdirSync(path.join(tt.cwd, ".git"));
    mkdirSync(path.join(tt.cwd, ".github", "hooks"), { recursive: true });
    writeFileSync(
      path.join(tt.cwd, ".github", "hooks", "mark.json"),
      JSON.stringify({ version: 1, hooks: { userPromptSubmitted: [{ type: "command", bash: "touch repo-hook-ran" }] } }),
    );
  });

  function start(): Promise<TmuxPane> {
    return tt.open(AGENT);
  }

  async function prompt(p: TmuxPane): Promise<void> {
    tt.server.enqueue(text("Hello back."));
    await p.waitFor(idle, { timeoutMs: WAIT_MS, what: "the prompt" });
    await p.type("hello");
    await p.sendKeys("Enter");
    await waitUntil(() => tt.server.completionRequests.length > 0, WAIT_MS, "the prompt to reach the model");
    await p.waitFor((screen) => screen.includes("Hello back.") && idle(screen), { timeoutMs: WAIT_MS, what: "the answer" });
  }

  it("'always' remembers the folder and the repository's hooks run", { timeout: 60_000 }, async () => {
    const p = await start();
    const screen = await p.waitForText("Do you trust the files in this folder?", { timeoutMs: WAIT_MS });
    expect(screen).toContain("userPromptSubmitted: touch repo-hook-ran (.github/hooks/mark.json)");
    await p.sendKeys("2");
    await prompt(p);
    expect(existsSync(path.join(tt.cwd, "repo-hook-ran"))).toBe(true);
    expect(readFileSync(path.join(tt.home, "config.json"), "utf8")).toContain("trustedFolders");
  });

  it("a bad hook file is named on screen when the TUI starts", { timeout: 60_000 }, async () => {
    rmSync(path.join(tt.cwd, ".github"), { recursive: true, force: true });
    mkdirSync(path.join(tt.home, "hooks"), { recursive: true });
    writeFileSync(path.join(tt.home, "hooks", "broken.json"), "{ not json");
    const p = await start();
    const screen = await p.waitForText("broken.json: not valid JSON", { timeoutMs: WAIT_MS });
    expect(screen).toContain("Hook file skipped");
  });

  it("asks about the repository's MCP servers too; 'this session' starts them without remembering the folder", { timeout: 60_000 }, async () => {
    rmSync(path.join(tt.cwd, ".github"), { recursive: true, force: true });
    writeFileSync(path.join(tt.cwd, ".mcp.json"), JSON.stringify({ mcpServers: { repo: stdioServer() } }));
    // The first prompt waits for the server however loaded the machine is.
    const p = await tt.open(`${AGENT}`);
    const screen = await p.waitForText("Do you trust the files in this folder?", { timeoutMs: WAIT_MS });
    expect(screen).toContain("MCP server repo:");
    await p.sendKeys("1");
    await prompt(p);
    const tools = ((tt.server.completionRequests[0]?.body.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);
    expect(tools).toContain("repo-echo_text");
    expect(existsSync(path.join(tt.home, "config.json"))).toBe(false);
  });

  it("'no' starts without them", { timeout: 60_000 }, async () => {
    const p = await start();
    await p.waitForText("Do you trust the files in this folder?", { timeoutMs: WAIT_MS });
    await p.sendKeys("3");
    await prompt(p);
    expect(existsSync(path.join(tt.cwd, "repo-hook-ran"))).toBe(false);
    expect(existsSync(path.join(tt.home, "config.json"))).toBe(false);
  });
});

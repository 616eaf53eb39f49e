/**
 * Copilot's home works unchanged: with a fake HOME, a Copilot user's ~/.copilot (or $COPILOT_HOME) agents,
 * hooks, mcp-config.json and config.json trustedFolders are read by the real bin/agent; ours wins where both
 * define the same thing; nothing is ever written there. Hooks only touch markers in the temp folders.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { resolveCopilotHome, userFolders } from "../../src/config/agent-home.js";
import { runAgent } from "../support/run-agent.js";
import { text, type CompletionRequest } from "../support/scripted-server.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";
import { tempDir } from "../support/engine-harness.js";
import { stdioServer } from "../mcp/mcp-support.js";

const ws = useE2eWorkspace({ prefix: "copilot-home" });

let home = "";
let copilot = "";
beforeEach(() => {
  home = tempDir("copilot-fake-home-");
  copilot = path.join(home, ".copilot");
  mkdirSync(path.join(ws.cwd, ".git"));
});

function put(file: string, content: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
}

const agentFile = (description: string, body: string) => `---\ndescription: ${description}\n---\n${body}\n`;
const markHook = (marker: string) => ({ version: 1, hooks: { userPromptSubmitted: [{ type: "command", bash: `touch ${marker}` }] } });

/** bin/agent's environment with the fake HOME; AGENT_HOME only when given. */
function env(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const { AGENT_HOME: _ours, ...rest } = ws.env();
  const merged: NodeJS.ProcessEnv = { ...rest, HOME: home };
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) merged[key] = value;
  return merged;
}

/** Every file under a folder with its size and mtime: what "nothing was written" compares. */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const file = path.join(at, name);
      const stat = statSync(file);
      if (stat.isDirectory()) walk(file);
      else out.push(`${path.relative(dir, file)} ${stat.size} ${stat.mtimeMs}`);
    }
  };
  walk(dir);
  return out.sort();
}

const toolNames = (request: CompletionRequest | undefined): string[] =>
  ((request?.body.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);
const systemText = (request: CompletionRequest | undefined): string => String(request?.body.messages[0]?.content ?? "");

describe("Copilot's home", () => {
  it("~/.copilot is read when AGENT_HOME is not set: agents, hooks, MCP servers and trusted folders; sessions go to ~/.agent and nothing is written to ~/.copilot", async () => {
    put(path.join(copilot, "agents", "reviewer.agent.md"), agentFile("Reviews my changes", "COPILOT REVIEWER"));
    put(path.join(copilot, "hooks", "mark.json"), markHook(path.join(ws.cwd, "copilot-hook-ran")));
    put(path.join(copilot, "mcp-config.json"), { mcpServers: { mini: stdioServer() } });
    // Copilot's managed config.json: JSON with comments; it trusts this repository, so the repository's hooks run.
    put(path.join(copilot, "config.json"), `// managed by Copilot\n{\n  "trustedFolders": ["${ws.cwd}"], // mine\n}\n`);
    put(path.join(ws.cwd, ".github", "hooks", "repo.json"), markHook(path.join(ws.cwd, "repo-hook-ran")));
    const before = snapshot(copilot);

    ws.server.enqueue(text("Reviewed."));
    const result = await runAgent(["-p", "review", "--agent", "reviewer", "--allow-all"], { env: env(), cwd: ws.cwd });
    expect(result.code).toBe(0);
    const request = ws.server.completionRequests[0];
    expect(systemText(request)).toContain("COPILOT REVIEWER");
    expect(toolNames(request)).toContain("mini-echo_text");
    expect(existsSync(path.join(ws.cwd, "copilot-hook-ran"))).toBe(true);
    expect(existsSync(path.join(ws.cwd, "repo-hook-ran"))).toBe(true);
    expect(result.stderr).not.toContain("not a trusted folder");
    // Our home is where the agent writes: the session, the MCP tool cache.
    expect(readdirSync(path.join(home, ".agent", "session-state"))).toHaveLength(1);
    expect(snapshot(copilot)).toEqual(before);
  });

  it("with both homes, ours wins: an agent, an MCP server and a hook file of the same name come from ours", async () => {
    const ours = path.join(home, ".agent");
    put(path.join(copilot, "agents", "helper.agent.md"), agentFile("Copilot's helper", "COPILOT HELPER"));
    put(path.join(ours, "agents", "helper.agent.md"), agentFile("Our helper", "OUR HELPER"));
    put(path.join(copilot, "mcp-config.json"), { mcpServers: { mini: stdioServer({ tools: ["count"] }), theirs: stdioServer({ tools: ["fail"] }) } });
    put(path.join(ours, "mcp-config.json"), { mcpServers: { mini: stdioServer({ tools: ["echo_text"] }) } });
    put(path.join(copilot, "hooks", "mark.json"), markHook(path.join(ws.cwd, "copilot-mark")));
    put(path.join(ours, "hooks", "mark.json"), markHook(path.join(ws.cwd, "our-mark")));
    put(path.join(copilot, "hooks", "only-copilot.json"), markHook(path.join(ws.cwd, "copilot-only-mark")));

    ws.server.enqueue(text("Helped."));
    const result = await runAgent(["-p", "help", "--agent", "helper", "--allow-all"], { env: env(), cwd: ws.cwd });
    expect(result.code).toBe(0);
    const request = ws.server.completionRequests[0];
    expect(systemText(request)).toContain("OUR HELPER");
    expect(systemText(request)).not.toContain("COPILOT HELPER");
    expect(toolNames(request)).toEqual(expect.arrayContaining(["mini-echo_text", "theirs-fail"]));
    expect(toolNames(request)).not.toContain("mini-count");
    expect(existsSync(path.join(ws.cwd, "our-mark"))).toBe(true);
    expect(existsSync(path.join(ws.cwd, "copilot-mark"))).toBe(false);
    expect(existsSync(path.join(ws.cwd, "copilot-only-mark"))).toBe(true);
  });

  it("$COPILOT_HOME is read even beside an AGENT_HOME; ~/.copilot is not read once AGENT_HOME is set", async () => {
    const elsewhere = tempDir("copilot-env-home-");
    put(path.join(elsewhere, "hooks", "mark.json"), markHook(path.join(ws.cwd, "env-home-mark")));
    put(path.join(copilot, "hooks", "mark.json"), markHook(path.join(ws.cwd, "dot-copilot-mark")));
    ws.server.enqueue(text("one"), text("two"));
    await runAgent(["-p", "hello"], { env: env({ AGENT_HOME: ws.home, COPILOT_HOME: elsewhere }), cwd: ws.cwd });
    expect(existsSync(path.join(ws.cwd, "env-home-mark"))).toBe(true);
    expect(existsSync(path.join(ws.cwd, "dot-copilot-mark"))).toBe(false);
    await runAgent(["-p", "hello"], { env: env({ AGENT_HOME: ws.home }), cwd: ws.cwd });
    expect(existsSync(path.join(ws.cwd, "dot-copilot-mark"))).toBe(false);
  });

  it("agent mcp list shows Copilot's servers; changing one is refused, naming its file, which stays as it was", async () => {
    put(path.join(copilot, "mcp-config.json"), { mcpServers: { theirs: { type: "local", command: "their-server" } } });
    const before = readFileSync(path.join(copilot, "mcp-config.json"), "utf8");
    const list = await runAgent(["mcp", "list"], { env: env(), cwd: ws.cwd });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`theirs (local): their-server [${path.join(copilot, "mcp-config.json")}]`);
    for (const verb of ["remove", "disable"]) {
      const changed = await runAgent(["mcp", verb, "theirs"], { env: env(), cwd: ws.cwd });
      expect(changed.code).toBe(1);
      expect(changed.stderr).toContain(
        `MCP server theirs is configured in ${path.join(copilot, "mcp-config.json")}, Copilot CLI's home, which agent reads but never changes`,
      );
    }
    expect(readFileSync(path.join(copilot, "mcp-config.json"), "utf8")).toBe(before);
    // Adding writes to our home.
    const added = await runAgent(["mcp", "add", "mine", "--", "my-server"], { env: env(), cwd: ws.cwd });
    expect(added.code).toBe(0);
    expect(existsSync(path.join(home, ".agent", "mcp-config.json"))).toBe(true);
    expect(readFileSync(path.join(copilot, "mcp-config.json"), "utf8")).toBe(before);
  });
});

describe("resolveCopilotHome", () => {
  it("is $COPILOT_HOME when set, else ~/.copilot when it exists and AGENT_HOME is not set", () => {
    const fake = tempDir("copilot-resolve-");
    expect(resolveCopilotHome({ HOME: fake })).toBeUndefined();
    mkdirSync(path.join(fake, ".copilot"));
    expect(resolveCopilotHome({ HOME: fake })).toBe(path.join(fake, ".copilot"));
    expect(resolveCopilotHome({ HOME: fake, AGENT_HOME: "/x/ours" })).toBeUndefined();
    expect(resolveCopilotHome({ HOME: fake, AGENT_HOME: "/x/ours", COPILOT_HOME: "/y/theirs" })).toBe("/y/theirs");
    expect(resolveCopilotHome({ HOME: fake, COPILOT_HOME: "  " })).toBe(path.join(fake, ".copilot"));
  });

  it("reads Copilot's folder before ours, and one folder once when both name the same place", () => {
    const ours = tempDir("copilot-same-");
    expect(userFolders({ agentHome: ours, copilotHome: "/c" }, "agents")).toEqual([path.join("/c", "agents"), path.join(ours, "agents")]);
    expect(userFolders({ agentHome: ours, copilotHome: `${ours}/.` })).toEqual([ours]);
    expect(userFolders({ agentHome: ours })).toEqual([ours]);
  });
});

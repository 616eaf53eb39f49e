/**
 * Plugins with the real bin/agent: install from a folder and from a git URL (a local bare repository over
 * file://), a marketplace, --plugin-dir; a plugin's skills, hooks and MCP servers, which run only once the user
 * installed or enabled it.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { stdioServer } from "../mcp/mcp-support.js";
import { runAgent } from "../support/run-agent.js";
import { text, toolCall } from "../support/scripted-server.js";
import { tempDir } from "../support/engine-harness.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";

const ws = useE2eWorkspace({ prefix: "plugins", removeDirs: true });

interface PluginOptions {
  name?: string;
  manifestDir?: string;
  /** A sessionStart hook that writes PLUGIN_ROOT (from its environment) and its own folder (through ${PLUGIN_ROOT}) to this file. */
  hookMarker?: string;
  mcp?: boolean;
}

/** A plugin folder with one skill (`tidy`), optionally a hook and an MCP server. */
function makePlugin(options: PluginOptions = {}): string {
  const name = options.name ?? "toolbox";
  const root = path.join(tempDir("plugin-src-"), name);
  mkdirSync(path.join(root, options.manifestDir ?? ".plugin"), { recursive: true });
  writeFileSync(
    path.join(root, options.manifestDir ?? ".plugin", "plugin.json"),
    JSON.stringify({ name, description: "Tools for tidy repositories", version: "1.2.0", author: { name: "Someone" } }),
  );
  mkdirSync(path.join(root, "skills", "tidy"), { recursive: true });
  writeFileSync(path.join(root, "skills", "tidy", "SKILL.md"), "---\nname: tidy\ndescription: Tidy the repository.\n---\nTIDY BODY\n");
  if (options.hookMarker) {
    writeFileSync(path.join(root, "mark.sh"), `printf '%s|%s' "$PLUGIN_ROOT" "$1" > '${options.hookMarker}'\n`);
    writeFileSync(
      path.join(root, "hooks.json"),
      JSON.stringify({ version: 1, hooks: { sessionStart: [{ type: "command", bash: 'bash "${PLUGIN_ROOT}/mark.sh" "${CLAUDE_PLUGIN_ROOT}"' }] } }),
    );
  }
  if (options.mcp)
    writeFileSync(path.join(root, ".mcp.json"), JSON.stringify({ mcpServers: { mini: stdioServer({ env: { WHERE: "${PLUGIN_ROOT}/data" } }) } }));
  return root;
}

const agent = (args: string[], extra: Record<string, string> = {}) => runAgent(args, { env: ws.env(extra), cwd: ws.cwd });
const systemOf = (index: number) => String(ws.server.completionRequests[index]?.body.messages.find((message) => message.role === "system")?.content ?? "");

describe("agent plugin install", () => {
  it("from a folder: copied into $AGENT_HOME/plugins/<name>, listed, its skill offered with the plugin's name as where it comes from", async () => {
    const source = makePlugin();
    const install = await agent(["plugin", "install", source]);
    expect(install.stderr).toBe("");
    expect(install.code).toBe(0);
    expect(install.stdout).toContain("Installed plugin toolbox 1.2.0: 1 skill, 0 hooks, 0 MCP servers.");
    expect(existsSync(path.join(ws.home, "plugins", "toolbox", "skills", "tidy", "SKILL.md"))).toBe(true);
    const list = await agent(["plugin", "list"]);
    expect(list.stdout).toContain(`● toolbox 1.2.0 · 1 skill, 0 hooks, 0 MCP servers · from ${source}`);
    ws.server.enqueue(toolCall("skill", { skill: "tidy" }), text("tidied"));
    const run = await agent(["-p", "tidy up"]);
    expect(run.code).toBe(0);
    expect(systemOf(0)).toContain("<name>tidy</name>\n<description>Tidy the repository.</description>\n<location>plugin:toolbox</location>");
    const [id] = readdirSync(path.join(ws.home, "session-state"));
    const log = readFileSync(path.join(ws.home, "session-state", id as string, "events.jsonl"), "utf8");
    expect(log).toContain('"pluginName":"toolbox","pluginVersion":"1.2.0"');
  });

  it("from a git URL (file:// of a bare repository): cloned without its .git; Claude's .claude-plugin/plugin.json is read", async () => {
    const source = makePlugin({ name: "claude-tools", manifestDir: ".claude-plugin" });
    execFileSync("git", ["init", "-q"], { cwd: source });
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "add", "."], { cwd: source });
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "plugin"], { cwd: source });
    const bare = path.join(tempDir("plugin-bare-"), "claude-tools.git");
    execFileSync("git", ["clone", "-q", "--bare", source, bare]);
    const install = await agent(["plugin", "install", `file://${bare}`]);
    expect(install.stderr).toBe("");
    expect(install.code).toBe(0);
    expect(install.stdout).toContain("Installed plugin claude-tools 1.2.0");
    expect(existsSync(path.join(ws.home, "plugins", "claude-tools", ".claude-plugin", "plugin.json"))).toBe(true);
    expect(existsSync(path.join(ws.home, "plugins", "claude-tools", ".git"))).toBe(false);
    const record = JSON.parse(readFileSync(path.join(ws.home, "plugins", "installed.json"), "utf8")) as { plugins: { source: unknown }[] };
    expect(record.plugins[0]?.source).toEqual({ kind: "git", url: `file://${bare}` });
  });

  it("refuses what is not a plugin, and a second install of the same name, leaving nothing behind", async () => {
    const notPlugin = tempDir("not-plugin-");
    const bad = await agent(["plugin", "install", notPlugin]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("is not a plugin: it has no .plugin/plugin.json, .claude-plugin/plugin.json, plugin.json");
    const source = makePlugin();
    expect((await agent(["plugin", "install", source])).code).toBe(0);
    const again = await agent(["plugin", "install", source]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("A plugin named toolbox is already installed");
    expect(readdirSync(path.join(ws.home, "plugins")).sort()).toEqual(["installed.json", "toolbox"]);
    const missing = await agent(["plugin", "install", "/no/such/folder"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("/no/such/folder: no such folder, not a git URL, and not <plugin>@<marketplace>");
  });
});

describe("a plugin's hooks and MCP servers", () => {
  it("run only once it is installed and enabled: ${PLUGIN_ROOT} is filled in and PLUGIN_ROOT is in the hook's environment", async () => {
    const marker = path.join(ws.home, "hook-ran");
    const source = makePlugin({ hookMarker: marker });
    ws.server.enqueue(text("one"), text("two"), text("three"));
    await agent(["-p", "hi"]);
    expect(existsSync(marker)).toBe(false);
    const install = await agent(["plugin", "install", source]);
    expect(install.stdout).toContain("It runs these programs in your sessions");
    expect(install.stdout).toContain('hook sessionStart: bash "');
    await agent(["-p", "hi"]);
    const root = path.join(ws.home, "plugins", "toolbox");
    expect(readFileSync(marker, "utf8")).toBe(`${root}|${root}`);
    const disable = await agent(["plugin", "disable", "toolbox"]);
    expect(disable.stdout).toContain("Plugin toolbox disabled");
    writeFileSync(marker, "");
    await agent(["-p", "hi"]);
    expect(readFileSync(marker, "utf8")).toBe("");
  });

  it("its MCP server starts with the plugin's name as its source and PLUGIN_ROOT in its environment", async () => {
    const source = makePlugin({ mcp: true });
    await agent(["plugin", "install", source]);
    ws.server.enqueue(toolCall("mini-show_env", { name: "WHERE" }), toolCall("mini-show_env", { name: "PLUGIN_ROOT" }), text("done"));
    const run = await agent(["-p", "ask", "--allow-all-tools"]);
    expect(run.code).toBe(0);
    const root = path.join(ws.home, "plugins", "toolbox");
    const results = ws.server.completionRequests[2]?.body.messages.filter((message) => message.role === "tool").map((message) => message.content);
    expect(results).toEqual([`WHERE=${root}/data`, `PLUGIN_ROOT=${root}`]);
    const show = await agent(["-p", "/mcp show mini"]);
    expect(show.stdout).toContain(`configured in: plugin toolbox (${path.join(root, ".mcp.json")})`);
  });

  it("--plugin-dir loads a plugin for one run without installing it", async () => {
    const marker = path.join(ws.home, "hook-ran");
    const source = makePlugin({ hookMarker: marker });
    ws.server.enqueue(text("ok"));
    const run = await agent(["--plugin-dir", source, "-p", "hi"]);
    expect(run.code).toBe(0);
    expect(readFileSync(marker, "utf8")).toBe(`${source}|${source}`);
    expect(systemOf(0)).toContain("<location>plugin:toolbox</location>");
    expect(existsSync(path.join(ws.home, "plugins"))).toBe(false);
    const bad = await agent(["--plugin-dir", "/no/such/dir", "-p", "hi"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--plugin-dir /no/such/dir: no such directory");
  });
});

describe("marketplaces", () => {
  it("add a folder with marketplace.json, browse it, install <plugin>@<marketplace> (an entry without its own manifest), then /<plugin>:<skill>", async () => {
    const market = tempDir("market-");
    mkdirSync(path.join(market, ".claude-plugin"));
    writeFileSync(
      path.join(market, ".claude-plugin", "marketplace.json"),
      JSON.stringify({
        name: "team-market",
        owner: { name: "Team" },
        plugins: [{ name: "helpers", source: "./plugins/helpers", description: "Helpful skills", version: "0.3.0" }],
      }),
    );
    mkdirSync(path.join(market, "plugins", "helpers", "skills", "note"), { recursive: true });
    writeFileSync(path.join(market, "plugins", "helpers", "skills", "note", "SKILL.md"), "---\nname: note\ndescription: Take a note.\n---\nNOTE BODY\n");
    const add = await agent(["plugin", "marketplace", "add", market]);
    expect(add.code).toBe(0);
    expect(add.stdout).toContain("Added marketplace team-market (1 plugin)");
    expect((await agent(["plugin", "marketplace", "browse", "team-market"])).stdout).toContain("helpers@team-market 0.3.0: Helpful skills");
    const install = await agent(["plugin", "install", "helpers@team-market"]);
    expect(install.stderr).toBe("");
    expect(install.stdout).toContain("Installed plugin helpers 0.3.0: 1 skill");
    ws.server.enqueue(text("noted"));
    const run = await agent(["-p", "/helpers:note buy milk"]);
    expect(run.code).toBe(0);
    const users = ws.server.completionRequests[0]?.body.messages.filter((message) => message.role === "user").map((message) => String(message.content));
    expect(users?.[0]).toContain('<skill-context name="note">');
    expect(users?.[1]).toMatch(/\/helpers:note buy milk$/);
    const unknown = await agent(["plugin", "install", "nothing@team-market"]);
    expect(unknown.stderr).toContain("Marketplace team-market lists no plugin nothing. It lists: helpers.");
    expect((await agent(["plugin", "marketplace", "remove", "team-market"])).stdout).toContain("Removed marketplace team-market.");
    expect((await agent(["plugin", "remove", "helpers"])).stdout).toContain("Removed plugin helpers.");
    expect(existsSync(path.join(ws.home, "plugins", "helpers"))).toBe(false);
  });
});

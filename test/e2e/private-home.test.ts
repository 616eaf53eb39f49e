/**
 * Private by default: with umask 000, everything the real bin/agent creates under AGENT_HOME (the home itself,
 * session folders, the log, workspace.yaml, shell output, plan.md, research reports, checkpoints, session.db,
 * the MCP config and tool cache, the skills' frontmatter cache, installed plugins and their list, settings.json
 * as /skills disable writes it) is 0700 for folders and 0600 for files, so other local users read nothing.
 */
import { lstatSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.js";
import { runAgent } from "../support/run-agent.js";
import { text, toolCalls } from "../support/scripted-server.js";
import { mcpConfig, stdioServer } from "../mcp/mcp-support.js";
import { tempDir } from "../support/engine-harness.js";

const ws = useE2eWorkspace({ prefix: "private" });
let umask = 0;
beforeAll(() => {
  // Inherited by every agent this file starts: nothing the umask would have hidden stays hidden.
  umask = process.umask(0);
});
afterAll(() => {
  process.umask(umask);
});

/** Every path under `root` with its permission bits, relative to root. */
function modes(root: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      const stats = lstatSync(full);
      found.set(path.relative(root, full), (stats.mode & 0o777).toString(8));
      if (stats.isDirectory()) walk(full);
    }
  };
  found.set(".", (lstatSync(root).mode & 0o777).toString(8));
  walk(root);
  return found;
}

const SUMMARY = "<overview>Worked.</overview>\n<next_steps>None</next_steps>\n<checkpoint_title>Private work</checkpoint_title>";

describe("AGENT_HOME is private whatever the umask", () => {
  it("every folder the agent creates is 0700 and every file 0600", async () => {
    const home = path.join(ws.home, "agent-home");
    const env = ws.env({ AGENT_HOME: home });
    ws.server.enqueue(text("Started."));
    expect((await runAgent(["-p", "start", "-s"], { env, cwd: ws.cwd })).code).toBe(0);
    const [id] = readdirSync(path.join(home, "session-state")) as [string];
    const dir = path.join(home, "session-state", id);

    ws.server.enqueue(
      toolCalls([
        { name: "bash", arguments: { command: "seq 1 30000", description: "Long output" } },
        { name: "bash", arguments: { command: "echo detached", description: "Detached", mode: "async", detach: true } },
        { name: "create", arguments: { path: path.join(dir, "plan.md"), file_text: "# Plan\n" } },
        { name: "create", arguments: { path: path.join(dir, "research", "report.md"), file_text: "# Report\n" } },
        { name: "sql", arguments: { description: "Todos", query: "INSERT INTO todos (id, title) VALUES ('a', 'A todo')" } },
        { name: "mini-echo_text", arguments: { text: "hi" } },
      ]),
      text("Done."),
    );
    const work = await runAgent(
      ["--resume", id, "-p", "work", "-s", "--allow-all-tools", "--allow-all-paths", "--additional-mcp-config", mcpConfig({ mini: stdioServer() })],
      { env, cwd: ws.cwd },
    );
    expect(work.code).toBe(0);
    ws.server.enqueue(text(SUMMARY));
    expect((await runAgent(["--resume", id, "-p", "/compact"], { env, cwd: ws.cwd })).code).toBe(0);
    const add = await runAgent(["mcp", "add", "later", "--", "node", "server.js"], { env, cwd: ws.cwd });
    expect(add.code).toBe(0);

    const found = modes(home);
    const session = (name: string) => path.join("session-state", id, name);
    // The test reaches every kind of file the issue names (not a vacuous walk).
    for (const expected of [
      ".",
      "session-state",
      session("."),
      session("events.jsonl"),
      session("workspace.yaml"),
      session("plan.md"),
      session("research"),
      session(path.join("research", "report.md")),
      session("session.db"),
      session("shell-output"),
      session(path.join("checkpoints", "index.md")),
      session(path.join("checkpoints", "001-private-work.md")),
      "mcp-config.json",
      "mcp-cache",
    ])
      expect([...found.keys()].map((name) => path.normalize(name))).toContain(path.normalize(expected));
    expect([...found.keys()].filter((name) => name.startsWith(session("shell-output/")))).not.toHaveLength(0);
    expect([...found.keys()].filter((name) => name.startsWith("mcp-cache/"))).not.toHaveLength(0);
    const loose = [...found.entries()].filter(([name, mode]) => {
      const isDir = lstatSync(path.join(home, name)).isDirectory();
      return mode !== (isDir ? "700" : "600");
    });
    expect(loose).toEqual([]);
  }, 60_000);

  it("the skills' cache, an installed plugin and its list, and settings.json from /skills disable are private too", async () => {
    const home = path.join(ws.home, "skills-home");
    const env = ws.env({ AGENT_HOME: home });
    mkdirSync(path.join(home, "skills", "tidy"), { recursive: true });
    writeFileSync(path.join(home, "skills", "tidy", "SKILL.md"), "---\nname: tidy\ndescription: Tidy the repository.\n---\nTidy.\n");
    const source = path.join(tempDir("private-plugin-"), "toolbox");
    mkdirSync(path.join(source, ".plugin"), { recursive: true });
    writeFileSync(path.join(source, ".plugin", "plugin.json"), JSON.stringify({ name: "toolbox", description: "Tools" }));
    expect((await runAgent(["plugin", "install", source], { env, cwd: ws.cwd })).code).toBe(0);
    ws.server.enqueue(text("Hello."));
    expect((await runAgent(["-p", "hi", "-s"], { env, cwd: ws.cwd })).code).toBe(0);
    expect((await runAgent(["-p", "/skills disable tidy"], { env, cwd: ws.cwd })).code).toBe(0);

    const found = modes(home);
    const expected = {
      "skills-cache.json": "600",
      plugins: "700",
      [path.join("plugins", "installed.json")]: "600",
      [path.join("plugins", "toolbox")]: "700",
      "settings.json": "600",
    };
    expect(Object.fromEntries(Object.keys(expected).map((name) => [name, found.get(name)]))).toEqual(expected);
  }, 60_000);
});

/** --available-tools / --excluded-tools on the command line: every tool can be named; an unknown name warns. */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { toolFlagWarnings } from "../../src/cli/check-tool-flags.js";
import { parseCommandLine } from "../../src/cli/program.js";
import { tempDir } from "../support/engine-harness.js";

let home: string;
let cwd: string;
beforeEach(() => {
  // parseCommandLine reads the version the build defines.
  vi.stubGlobal("AGENT_VERSION", "test");
  home = tempDir("tool-flags-home-");
  cwd = tempDir("tool-flags-cwd-");
});
afterEach(() => {
  vi.unstubAllGlobals();
  for (const dir of [home, cwd]) rmSync(dir, { recursive: true, force: true });
});

const warnings = (flags: { availableTools?: string[]; excludedTools?: string[] }, additional: string[] = []) =>
  toolFlagWarnings(flags, { additional }, cwd, { AGENT_HOME: home });

describe("the tool filter flags", () => {
  it("take the agent tools and MCP names without a usage error, split on commas", () => {
    const options = parseCommandLine(["--excluded-tools", "task,read_agent", "write_agent", "--available-tools", "github-get_issue", "mini/*"]);
    expect(options.permissions.excludedTools).toEqual(["task", "read_agent", "write_agent"]);
    expect(options.permissions.availableTools).toEqual(["github-get_issue", "mini/*"]);
  });

  it("given without names (or empty), --available-tools means no tool at all", () => {
    expect(parseCommandLine(["--available-tools", "-s"]).permissions.availableTools).toEqual([]);
    expect(parseCommandLine(["--available-tools="]).permissions.availableTools).toEqual([]);
    expect(parseCommandLine(["--available-tools", ""]).permissions.availableTools).toEqual([]);
  });

  it("built-in, agent, skill and `*` names warn about nothing", () => {
    expect(
      warnings({ availableTools: ["view", "task", "list_agents", "*"], excludedTools: ["read_agent", "write_agent", "sql", "ask_user", "skill"] }),
    ).toEqual([]);
  });

  it("an unknown name is named in a warning that lists the tools there are", () => {
    const [warning, ...rest] = warnings({ excludedTools: ["tsak"] });
    expect(rest).toEqual([]);
    expect(warning).toMatch(/^--excluded-tools tsak: no such tool, ignored \(tools: bash, .*task, read_agent, write_agent, list_agents/);
  });

  it("an MCP tool of a configured server is known in each spelling; another server's is not", () => {
    writeFileSync(path.join(home, "mcp-config.json"), JSON.stringify({ mcpServers: { tickets: { command: "true" } } }));
    mkdirSync(path.join(home, "agents"));
    writeFileSync(path.join(home, "agents", "w.agent.md"), "---\ndescription: Wiki\nmcp-servers:\n  wiki:\n    command: 'true'\n---\nWiki.\n");
    const extra = JSON.stringify({ mcpServers: { extra: { url: "http://127.0.0.1:9/mcp" } } });
    const flags = { availableTools: ["tickets-get", "tickets/get", "tickets/*", "wiki-page", "extra-x"], excludedTools: ["other-thing"] };
    expect(warnings(flags, [extra])).toEqual([expect.stringMatching(/^--excluded-tools other-thing: no such tool, ignored .*MCP servers .*tickets/)]);
    expect(warnings({ availableTools: ["extra-x"] })).toHaveLength(1); // without --additional-mcp-config there is no "extra"
  });
});

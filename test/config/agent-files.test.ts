/** The `*.agent.md` loader: frontmatter checked strictly, one bad file never hides the others. */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { builtinAgentsDir, checkFrontmatter, loadAgentFiles, parseAgentFile } from "../../src/config/agent-files.js";
import { resolveToolNames } from "../../src/config/agent-tool-aliases.js";
import { AgentCatalog, describeAgentTypes } from "../../src/core/agents/agent-catalog.js";
import { tempDir } from "../support/engine-harness.js";

const file = (front: string, body = "Do the thing.") => `---\n${front}\n---\n${body}\n`;

function write(dir: string, name: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  const at = path.join(dir, name);
  writeFileSync(at, text);
  return at;
}

describe("parseAgentFile", () => {
  it("reads a good file: name, description, tools, model, flags, mcp-servers, body", () => {
    const parsed = parseAgentFile(
      "/x/reviewer.agent.md",
      file(
        "name: reviewer\ndescription: Reviews things\ntools: [read, search]\nmodel: small-model\ndisable-model-invocation: true\nuser-invocable: false\nmcp-servers:\n  echo: {command: echo}",
        "You review.\n\nCarefully.",
      ),
      "user",
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.agent).toMatchObject({
      name: "reviewer",
      displayName: "Reviewer",
      description: "Reviews things",
      tools: ["view", "grep", "glob"],
      model: "small-model",
      source: "user",
      systemPrompt: "You review.\n\nCarefully.",
      userInvocable: false,
      modelInvocable: false,
      mcpServers: { echo: { command: "echo" } },
    });
  });

  it("takes the name from the file when the frontmatter has none; no tools key means every tool", () => {
    const parsed = parseAgentFile("/x/my-helper.agent.md", file("description: Helps"), "repo");
    expect(parsed.ok && parsed.agent.name).toBe("my-helper");
    expect(parsed.ok && parsed.agent.displayName).toBe("My Helper");
    expect(parsed.ok && parsed.agent.tools).toBeUndefined();
    expect(parsed.ok && parsed.agent.userInvocable && parsed.agent.modelInvocable).toBe(true);
  });

  it('"*" means every tool', () => {
    const parsed = parseAgentFile("/x/a.agent.md", file('description: d\ntools: ["*"]'), "user");
    expect(parsed.ok && parsed.agent.tools).toBeUndefined();
  });

  it.each([
    ["a missing description", "name: a", "description"],
    ["a description of the wrong type", "description: [1, 2]", "description"],
    ["tools that are not a list of names", "description: d\ntools: {a: 1}", "tools"],
    ["a bad name", "name: bad name!\ndescription: d", "name"],
    ["a non-boolean flag", "description: d\nuser-invocable: sometimes", "user-invocable"],
    ["mcp-servers that is not a map", "description: d\nmcp-servers: [a]", "mcp-servers"],
    ["an unknown key", "description: d\ncolour: blue", "colour"],
  ])("reports %s with the file and the field", (_label, front, field) => {
    const parsed = parseAgentFile("/x/bad.agent.md", file(front), "user");
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.file).toBe("/x/bad.agent.md");
    expect(parsed.error.field).toBe(field);
  });

  it("reports a file without frontmatter and one with broken YAML", () => {
    const none = parseAgentFile("/x/a.agent.md", "Just text.", "user");
    expect(!none.ok && none.error.message).toContain("no YAML frontmatter");
    const broken = parseAgentFile("/x/b.agent.md", file("description: [unclosed"), "user");
    expect(!broken.ok && broken.error.message).toContain("not valid YAML");
  });

  it("drops unknown tool names with a warning naming the file and the field", () => {
    const parsed = parseAgentFile("/x/a.agent.md", file("description: d\ntools: [view, teleport]"), "user");
    expect(parsed.ok && parsed.agent.tools).toEqual(["view"]);
    expect(parsed.ok && parsed.warnings).toEqual([{ file: "/x/a.agent.md", field: "tools", message: "unknown tool name(s) ignored: teleport" }]);
  });
});

describe("tool aliases", () => {
  it("maps Copilot, Claude Code and VS Code names to ours, keeps MCP names, reports the rest", () => {
    expect(resolveToolNames(["edit"])?.tools).toEqual(["create", "edit"]);
    expect(resolveToolNames(["read"])?.tools).toEqual(["view"]);
    expect(resolveToolNames(["search"])?.tools).toEqual(["grep", "glob"]);
    expect(resolveToolNames(["shell"])?.tools).toEqual(["bash", "read_bash", "stop_bash", "list_bash"]);
    expect(resolveToolNames(["execute"])?.tools).toEqual(["bash", "read_bash", "stop_bash", "list_bash"]);
    expect(resolveToolNames(["Read", "Grep", "Glob", "Write"])?.tools).toEqual(["view", "grep", "glob", "create", "edit"]);
    expect(resolveToolNames(["Bash", "Edit"])?.tools).toEqual(["bash", "read_bash", "stop_bash", "list_bash", "create", "edit"]);
    expect(resolveToolNames(["runCommands", "codebase"])?.tools).toEqual(["bash", "read_bash", "stop_bash", "list_bash", "grep", "glob", "view"]);
    expect(resolveToolNames(["view", "github/get_issue", "Teleport"])).toEqual({
      tools: ["view", "github/get_issue"],
      unknown: ["Teleport"],
      mcp: ["github/get_issue"],
    });
    expect(resolveToolNames(["view", "*"])).toBeUndefined();
  });

  it("accepts Claude Code's comma-separated tools string", () => {
    const parsed = parseAgentFile("/x/a.agent.md", file("description: d\ntools: Read, Grep"), "user");
    expect(parsed.ok && parsed.agent.tools).toEqual(["view", "grep"]);
  });
});

describe("loadAgentFiles", () => {
  it("loads built-ins, user and repo agents; repo beats user on a name clash; a bad file is reported and the rest load", () => {
    const home = tempDir("agents-home-");
    const repo = tempDir("agents-repo-");
    const builtinDir = tempDir("agents-builtin-");
    write(builtinDir, "explore.agent.md", file("name: explore\ndescription: built-in explore"));
    write(path.join(home, "agents"), "helper.agent.md", file("description: user helper", "USER BODY"));
    write(path.join(home, "agents"), "solo.agent.md", file("description: only the user's"));
    const bad = write(path.join(home, "agents"), "broken.agent.md", file("description: d\ntools: 7"));
    write(path.join(home, "agents"), "notes.md", "not an agent file");
    write(path.join(repo, ".github", "agents"), "helper.agent.md", file("description: repo helper", "REPO BODY"));

    const { agents, errors } = loadAgentFiles({ agentHome: home, gitRoot: repo, builtinDir });
    expect(agents.map((agent) => `${agent.name}:${agent.source}`).sort()).toEqual(["explore:builtin", "helper:repo", "solo:user"]);
    expect(agents.find((agent) => agent.name === "helper")?.systemPrompt).toBe("REPO BODY");
    expect(errors).toEqual([expect.objectContaining({ file: bad, field: "tools" })]);
  });

  it("finds the package's own agents folder, and every built-in parses with read-only tools where promised", () => {
    const dir = builtinAgentsDir();
    expect(dir).toBeDefined();
    const { agents, errors, warnings } = loadAgentFiles({ builtinDir: dir as string });
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
    expect(agents.map((agent) => agent.name).sort()).toEqual(["code-review", "explore", "general-purpose", "rem-agent", "research", "rubber-duck", "task"]);
    for (const name of ["explore", "code-review", "research", "rubber-duck"]) {
      const tools = agents.find((agent) => agent.name === name)?.tools ?? ["(all)"];
      expect(
        tools.filter((tool) => ["create", "edit"].includes(tool)),
        name,
      ).toEqual([]);
    }
    expect(agents.find((agent) => agent.name === "general-purpose")?.tools).toBeUndefined();
    // The rem-agent: hidden from the model and the picker, and nothing but the memory tools.
    expect(agents.find((agent) => agent.name === "rem-agent")).toMatchObject({
      userInvocable: false,
      modelInvocable: false,
      tools: ["session_digest", "context_board", "read_memories", "store_memory", "vote_memory"],
    });
    for (const agent of agents) expect(agent.systemPrompt.length, agent.name).toBeGreaterThan(100);
  });

  it("takes the built-ins' frontmatter from the build exactly as the check gives it (needs dist/, built by npm test)", () => {
    const dir = builtinAgentsDir() as string;
    const cached = JSON.parse(readFileSync(path.join(path.dirname(dir), "dist", "agents-frontmatter.json"), "utf8")) as Record<string, unknown>;
    const parseYaml = (createRequire(import.meta.url)("yaml") as { parse(text: string): unknown }).parse;
    const files = readdirSync(dir).filter((name) => name.endsWith(".agent.md"));
    expect(Object.keys(cached)).toHaveLength(files.length);
    for (const name of files) {
      const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(path.join(dir, name), "utf8"))?.[1] as string;
      const checked = checkFrontmatter(parseYaml(front));
      expect(checked.ok, name).toBe(true);
      expect(cached[front], name).toStrictEqual(JSON.parse(JSON.stringify(checked.ok ? checked.data : null)));
    }
  });
});

describe("built-in agents cannot be shadowed", () => {
  it("refuses a user or repository file with a built-in's name (in any case), naming the file; the built-in keeps its tools and prompt", () => {
    const home = tempDir("agents-shadow-home-");
    const repo = tempDir("agents-shadow-repo-");
    const builtinDir = tempDir("agents-shadow-builtin-");
    write(builtinDir, "explore.agent.md", file("name: explore\ndescription: read-only search\ntools: [view, grep]", "BUILT-IN BODY"));
    write(builtinDir, "rubber-duck.agent.md", file("name: rubber-duck\ndescription: critiques"));
    const repoExplore = write(path.join(repo, ".github", "agents"), "explore.agent.md", file('description: anything goes\ntools: ["*"]', "REPO BODY"));
    const userDuck = write(path.join(home, "agents"), "duck.agent.md", file("name: Rubber-Duck\ndescription: mine"));
    const renamed = write(path.join(repo, ".github", "agents"), "sneaky.agent.md", file("name: EXPLORE\ndescription: sneaky"));
    write(path.join(repo, ".github", "agents"), "my-explore.agent.md", file("description: a different name is fine"));

    const { agents, errors } = loadAgentFiles({ agentHome: home, gitRoot: repo, builtinDir });
    const explore = agents.filter((agent) => agent.name.toLowerCase() === "explore");
    expect(explore).toHaveLength(1);
    expect(explore[0]).toMatchObject({ source: "builtin", tools: ["view", "grep"], systemPrompt: "BUILT-IN BODY" });
    expect(agents.find((agent) => agent.name.toLowerCase() === "rubber-duck")?.source).toBe("builtin");
    expect(agents.find((agent) => agent.name === "my-explore")?.source).toBe("repo");
    expect(errors.map((error) => error.file).sort()).toEqual([repoExplore, userDuck, renamed].sort());
    for (const error of errors) {
      expect(error.field).toBe("name");
      expect(error.message).toMatch(/is the name of a built-in agent, which a file cannot replace/);
    }
  });
});

describe("an agent file's own MCP servers", () => {
  const servers = "mcp-servers:\n  tracker: {type: local, command: node, args: [tracker.js]}\n  db: {command: db-server}";

  it("are left out of a repository file where the folder is not trusted, with a warning saying why and how to trust; trusted, they stay", () => {
    const home = tempDir("agents-trust-home-");
    const repo = tempDir("agents-trust-repo-");
    const agentFile = write(
      path.join(repo, ".github", "agents"),
      "triager.agent.md",
      file(`description: sorts issues\ntools: [view, "tracker/*"]\n${servers}`, "TRIAGE"),
    );
    const untrusted = loadAgentFiles({ agentHome: home, gitRoot: repo, builtinDir: tempDir("agents-none-"), trust: { agentHome: home } });
    const triager = untrusted.agents.find((agent) => agent.name === "triager");
    // Still loads: its prompt and its tools list, without its servers.
    expect(triager).toMatchObject({ systemPrompt: "TRIAGE", tools: ["view", "tracker/*"], withheldMcpServers: ["tracker", "db"] });
    expect(triager?.mcpServers).toBeUndefined();
    expect(untrusted.warnings).toEqual([
      expect.objectContaining({
        file: agentFile,
        field: "mcp-servers",
        message: expect.stringMatching(new RegExp(`MCP servers tracker, db will not start: ${repo} is not a trusted folder.*"trustedFolders"`)),
      }),
    ]);
    // No trust to read at all: held back too (fail closed).
    expect(loadAgentFiles({ gitRoot: repo, builtinDir: tempDir("agents-none-") }).agents[0]?.mcpServers).toBeUndefined();
    // Trusting a subfolder does not trust the root's .github/agents.
    mkdirSync(path.join(repo, "sub"));
    writeFileSync(path.join(home, "config.json"), JSON.stringify({ trustedFolders: [path.join(repo, "sub")] }));
    expect(
      loadAgentFiles({ agentHome: home, gitRoot: repo, builtinDir: tempDir("agents-none-"), trust: { agentHome: home } }).agents[0]?.mcpServers,
    ).toBeUndefined();
    writeFileSync(path.join(home, "config.json"), JSON.stringify({ trustedFolders: [repo] }));
    const trusted = loadAgentFiles({ agentHome: home, gitRoot: repo, builtinDir: tempDir("agents-none-"), trust: { agentHome: home } });
    expect(Object.keys(trusted.agents[0]?.mcpServers ?? {})).toEqual(["tracker", "db"]);
    expect(trusted.warnings).toEqual([]);
  });

  it("of the user's own files always load", () => {
    const home = tempDir("agents-user-servers-");
    write(path.join(home, "agents"), "mine.agent.md", file(`description: mine\n${servers}`));
    const { agents, warnings } = loadAgentFiles({ agentHome: home, builtinDir: tempDir("agents-none-"), trust: { agentHome: home } });
    expect(Object.keys(agents[0]?.mcpServers ?? {})).toEqual(["tracker", "db"]);
    expect(warnings).toEqual([]);
  });
});

describe("AgentCatalog", () => {
  it("loads on first use only, reports problems once, and lists custom agents first for the task tool", () => {
    const home = tempDir("agents-home-");
    write(path.join(home, "agents"), "mine.agent.md", file("description: My own agent"));
    write(path.join(home, "agents"), "hidden.agent.md", file("description: Not for the model\ndisable-model-invocation: true"));
    write(path.join(home, "agents"), "bad.agent.md", "no frontmatter");
    const reports: number[] = [];
    const catalog = new AgentCatalog({ agentHome: home, onProblems: ({ errors }) => reports.push(errors.length) });
    expect(reports).toEqual([]);
    expect(catalog.list()[0]?.name).toBe("hidden");
    catalog.list();
    expect(reports).toEqual([1]);
    expect(catalog.get("explore")?.source).toBe("builtin");
    const described = describeAgentTypes(catalog.list());
    expect(described.indexOf("- mine: My own agent")).toBeGreaterThanOrEqual(0);
    expect(described.indexOf("prefer one of these")).toBeLessThan(described.indexOf("- mine:"));
    expect(described.indexOf("- mine:")).toBeLessThan(described.indexOf("- explore:"));
    expect(described).not.toContain("hidden");
  });
});

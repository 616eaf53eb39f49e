import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { expandEnv, serverEnv } from "../../src/mcp/expand-env.js";
import { loadMcpConfig } from "../../src/mcp/mcp-config.js";
import { mcpToolName } from "../../src/mcp/mcp-tool.js";
import { tempDir } from "../support/engine-harness.js";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup() {
  const home = tempDir("mcp-cfg-home-");
  const cwd = tempDir("mcp-cfg-cwd-");
  made.push(home, cwd);
  return { home, cwd };
}

describe("MCP configuration", () => {
  it("reads Copilot's mcp-config.json: local/stdio, http and sse servers", () => {
    const { home, cwd } = setup();
    writeFileSync(
      path.join(home, "mcp-config.json"),
      JSON.stringify({
        mcpServers: {
          ctx: { type: "local", command: "npx", args: ["-y", "some-mcp"], env: { FOO: "bar" }, tools: ["a", "b"], timeout: 5000 },
          remote1: { type: "http", url: "https://example.com/mcp", headers: { "X-Key": "v" }, tools: ["*"] },
          events: { type: "sse", url: "https://example.com/sse" },
          bare: { command: "node", args: ["server.js"] },
        },
      }),
    );
    const { servers, problems } = loadMcpConfig({ agentHome: home, cwd });
    expect(problems).toEqual([]);
    expect(servers.map((server) => [server.name, server.transport])).toEqual([
      ["ctx", "stdio"],
      ["remote1", "http"],
      ["events", "sse"],
      ["bare", "stdio"],
    ]);
  });

  it("reports a broken file or server and keeps the good ones", () => {
    const { home, cwd } = setup();
    writeFileSync(
      path.join(home, "mcp-config.json"),
      JSON.stringify({ mcpServers: { good: { command: "x" }, nothing: { type: "http" }, odd: { command: 3 } } }),
    );
    const { servers, problems } = loadMcpConfig({ agentHome: home, cwd, additional: ["{not json"] });
    expect(servers.map((server) => server.name)).toEqual(["good"]);
    expect(problems).toHaveLength(3);
    expect(problems.join("\n")).toMatch(/nothing" needs a "command"/);
    expect(problems.join("\n")).toMatch(/--additional-mcp-config: not valid JSON/);
  });

  it("loads the repository's .mcp.json, .github/mcp.json and .vscode/mcp.json (servers key) only in a trusted folder", () => {
    const { home, cwd } = setup();
    writeFileSync(path.join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { repo: { command: "a" } } }));
    mkdirSync(path.join(cwd, ".github"));
    writeFileSync(path.join(cwd, ".github", "mcp.json"), JSON.stringify({ mcpServers: { gh: { command: "b" } } }));
    mkdirSync(path.join(cwd, ".vscode"));
    writeFileSync(path.join(cwd, ".vscode", "mcp.json"), JSON.stringify({ servers: { vs: { type: "stdio", command: "c" } } }));
    const untrusted = loadMcpConfig({ agentHome: home, cwd });
    expect(untrusted.servers).toEqual([]);
    expect(untrusted.problems[0]).toMatch(/not a trusted folder/);
    writeFileSync(path.join(home, "config.json"), JSON.stringify({ trustedFolders: [path.dirname(cwd)] }));
    expect(loadMcpConfig({ agentHome: home, cwd }).servers.map((server) => server.name)).toEqual(["repo", "gh", "vs"]);
  });

  it("--additional-mcp-config replaces a server of the same name; disabled:true leaves one out, --disable-mcp-server lists it as disabled", () => {
    const { home, cwd } = setup();
    writeFileSync(
      path.join(home, "mcp-config.json"),
      JSON.stringify({ mcpServers: { a: { command: "old" }, b: { command: "b" }, c: { command: "c", disabled: true } } }),
    );
    writeFileSync(path.join(cwd, "extra.json"), JSON.stringify({ mcpServers: { a: { command: "new" } } }));
    const { servers, disabled } = loadMcpConfig({ agentHome: home, cwd, additional: ["@extra.json"], disabled: ["b", "c", "unknown"] });
    expect(servers.map((server) => [server.name, server.config.command])).toEqual([
      ["a", "new"],
      ["b", "b"],
    ]);
    expect(disabled).toEqual(["b"]);
  });

  it("expands ${VAR} and $VAR, unset ones to nothing", () => {
    expect(expandEnv("Bearer ${TOKEN} $USER_X-$NOPE.", { TOKEN: "t0k", USER_X: "me" })).toBe("Bearer t0k me-.");
  });

  it("reads a server's env values as written (direct) or as the names of variables (indirect)", () => {
    const env = { HOST_TOKEN: "t0k", OTHER: "o" };
    const config = { A: "HOST_TOKEN", B: "literal value", C: "${OTHER}-x", D: "UNSET_NAME" };
    expect(serverEnv(config, env, "direct")).toEqual({ A: "HOST_TOKEN", B: "literal value", C: "o-x", D: "UNSET_NAME" });
    expect(serverEnv(config, env, "indirect")).toEqual({ A: "t0k", B: "literal value", C: "o-x", D: "UNSET_NAME" });
  });

  it("names tools <server>-<tool> in the characters a function name may use", () => {
    expect(mcpToolName("mini", "echo_text")).toBe("mini-echo_text");
    expect(mcpToolName("my.server", "do thing/now")).toBe("my_server-do_thing_now");
    expect(mcpToolName("s", "x".repeat(100))).toHaveLength(64);
  });
});

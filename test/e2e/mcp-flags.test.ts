/**
 * --additional-mcp-config and --disable-mcp-server with bad values, through the real bin/agent: a bad config
 * is a usage error (exit 2) before anything starts; a disabled name nothing defines gets a warning naming the
 * servers there are.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.js";
import { runAgent } from "../support/run-agent.js";
import { text } from "../support/scripted-server.js";

const ws = useE2eWorkspace({ prefix: "mcp-flags", removeDirs: true });

describe("MCP flags with bad values", () => {
  it.each([
    ["bad JSON", "{not json", /--additional-mcp-config \{not json: not valid JSON/],
    ["a missing @file", "@nowhere.json", /--additional-mcp-config @nowhere\.json: no such file/],
    ["a server the schema rejects", JSON.stringify({ mcpServers: { bad: { command: 42 } } }), /--additional-mcp-config .*MCP server "bad"/],
    ["a server with neither command nor url", JSON.stringify({ mcpServers: { empty: {} } }), /MCP server "empty" needs a "command"/],
  ])("--additional-mcp-config with %s is a usage error before anything starts", async (_what, value, message) => {
    const run = await runAgent(["-p", "hello", "--additional-mcp-config", value], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toContain("(run agent --help for usage)");
    expect(ws.server.requests).toHaveLength(0);
  });

  it("is checked before the face is chosen (no prompt at all still names the flag, not the missing prompt)", async () => {
    const run = await runAgent(["--additional-mcp-config", "@missing.json"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--additional-mcp-config @missing.json: no such file");
  });

  it("--disable-mcp-server naming a server nothing defines warns with the known names; a known one does not", async () => {
    writeFileSync(path.join(ws.home, "mcp-config.json"), JSON.stringify({ mcpServers: { tickets: { command: "true", disabled: true } } }));
    mkdirSync(path.join(ws.home, "agents"), { recursive: true });
    writeFileSync(
      path.join(ws.home, "agents", "helper.agent.md"),
      "---\nname: helper\ndescription: Helps\nmcp-servers:\n  wiki:\n    command: 'true'\n---\nYou help.\n",
    );
    const extra = JSON.stringify({ mcpServers: { extra: { url: "http://127.0.0.1:9/mcp", disabled: true } } });
    ws.server.enqueue(text("Hi."), text("Hi again."));
    const typo = await runAgent(["-p", "hello", "--additional-mcp-config", extra, "--disable-mcp-server", "tickts"], { env: ws.env(), cwd: ws.cwd });
    expect(typo.code).toBe(0);
    expect(typo.stderr).toContain("--disable-mcp-server tickts: no configuration defines this server (known servers: extra, tickets, wiki)");
    const known = await runAgent(["-p", "hello", "--disable-mcp-server", "wiki", "--disable-mcp-server", "tickets"], { env: ws.env(), cwd: ws.cwd });
    expect(known.code).toBe(0);
    expect(known.stderr).not.toContain("--disable-mcp-server");
  });
});

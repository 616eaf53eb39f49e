import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runMcpCommand } from "../../src/cli/mcp-command.js";
import { tempDir } from "../support/temp-dirs.js";

let home: string;
let stderr: string;
const saved = process.env.AGENT_HOME;

beforeEach(() => {
  home = tempDir("mcp-command-");
  process.env.AGENT_HOME = home;
  stderr = "";
  vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  if (saved === undefined) delete process.env.AGENT_HOME;
  else process.env.AGENT_HOME = saved;
  rmSync(home, { recursive: true, force: true });
});

const servers = () => (JSON.parse(readFileSync(path.join(home, "mcp-config.json"), "utf8")) as { mcpServers: Record<string, unknown> }).mcpServers;

describe("agent mcp add", () => {
  it("refuses a name that is already configured and keeps the entry as it was", async () => {
    expect(await runMcpCommand(["add", "files", "--env", "TOKEN=secret", "--", "node", "server.js"])).toBe(0);
    expect(await runMcpCommand(["add", "files", "--", "other"])).toBe(1);
    expect(stderr).toContain("An MCP server named files is already in");
    expect(stderr).toContain("agent mcp remove files");
    expect(servers()).toEqual({ files: { type: "local", command: "node", args: ["server.js"], env: { TOKEN: "secret" }, tools: ["*"] } });
  });

  it("refuses a remote server whose URL is not http(s), writing nothing", async () => {
    expect(await runMcpCommand(["add", "--transport", "http", "web", "notaurl"])).toBe(1);
    expect(stderr).toContain("notaurl is not an http:// or https:// URL");
    expect(await runMcpCommand(["add", "--transport", "sse", "web", "ftp://example.com/x"])).toBe(1);
    expect(await runMcpCommand(["add", "--transport", "http", "web", "https://example.com/mcp"])).toBe(0);
    expect(servers()).toEqual({ web: { type: "http", url: "https://example.com/mcp", tools: ["*"] } });
  });
});

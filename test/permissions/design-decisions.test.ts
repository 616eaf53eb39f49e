/** Choices made where the issue is silent, each pinned by a test. */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseRule, RuleSyntaxError } from "../../src/permissions/rules.js";
import { checkPermission, checkShell } from "../support/permission-check.js";
import { tempDir } from "../support/temp-dirs.js";

const cwd = tempDir("perm-design-");
mkdirSync(path.join(cwd, ".git"));
const url = (address: string) => ({ kind: "url" as const, url: address, intention: "fetch" });

describe("URL rules", () => {
  it("a bare-domain deny covers http, https and subdomains; a bare-domain allow only https on that host", async () => {
    const deny = { cwd, flags: { denyUrl: ["example.com"], allowAllUrls: true } };
    for (const address of ["https://example.com/", "http://example.com/x", "https://api.example.com/"]) {
      expect((await checkPermission(url(address), "web_fetch", deny)).verdict).toBe("deny");
    }
    const allow = { cwd, flags: { allowUrl: ["example.com"] } };
    expect((await checkPermission(url("https://example.com/a"), "web_fetch", allow)).verdict).toBe("allow");
    expect((await checkPermission(url("http://example.com/a"), "web_fetch", allow)).verdict).toBe("ask");
    expect((await checkPermission(url("https://api.example.com/a"), "web_fetch", allow)).verdict).toBe("ask");
  });

  it("a path in a URL rule matches whole path segments", async () => {
    const allow = { cwd, flags: { allowUrl: ["https://example.com/api"] } };
    expect((await checkPermission(url("https://example.com/api/v1"), "web_fetch", allow)).verdict).toBe("allow");
    expect((await checkPermission(url("https://example.com/apiary"), "web_fetch", allow)).verdict).toBe("ask");
  });

  it("refuses a URL rule that is not a URL", () => {
    expect(() => parseRule("url(not a url)", "allow", "test")).toThrow(RuleSyntaxError);
  });
});

describe("tool and server rules", () => {
  it("matches an MCP server, and one of its tools", async () => {
    const request = { kind: "mcp" as const, serverName: "mail", toolName: "send", toolTitle: "Send", readOnly: false };
    expect((await checkPermission(request, "mail-send", { cwd, flags: { denyTool: ["mail(send)"], allowAllTools: true } })).verdict).toBe("deny");
    expect((await checkPermission(request, "mail-send", { cwd, flags: { denyTool: ["mail(read)"], allowAllTools: true } })).verdict).toBe("allow");
    expect((await checkPermission(request, "mail-send", { cwd, flags: { allowTool: ["mail"] } })).verdict).toBe("allow");
  });
});

describe("paths and the floor", () => {
  it("a path rule covers what is inside a directory of that name", async () => {
    const decision = await checkShell("cat secrets/key.pem", { cwd, flags: { denyTool: ["read(secrets)"] } });
    expect(decision.verdict).toBe("deny");
  });

  it("deleting a whole allowed directory is refused even under --yolo", async () => {
    const yolo = { cwd, flags: { allowAllTools: true, allowAllPaths: true, allowAllUrls: true } };
    expect((await checkShell("rm -rf .", yolo)).verdict).toBe("deny");
    expect((await checkShell("rm -rf build", yolo)).verdict).toBe("allow");
  });
});

describe("git configuration that names a program", () => {
  it("is treated as running that program, written with git config or given with -c", async () => {
    const gitOnly = { cwd, flags: { allowTool: ["shell(git:*)"] } };
    expect((await checkShell("git config core.fsmonitor 'rm x'", gitOnly)).verdict).toBe("ask");
    expect((await checkShell("git config core.hooksPath /tmp/hooks", gitOnly)).verdict).toBe("ask");
    const denyRm = { cwd, flags: { denyTool: ["shell(rm)"], allowAllTools: true } };
    expect((await checkShell("git -c core.pager='rm x' log", denyRm)).verdict).toBe("deny");
    expect((await checkShell("git config user.name Me", gitOnly)).verdict).toBe("allow");
  });
});

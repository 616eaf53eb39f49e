/**
 * Folder trust's one rule (mayRun): the user's own files may run programs; a repository's only when the folder
 * that holds the file (the root above `.github/` and `.vscode/`) is trusted. Compared canonically: symlinks,
 * `..`, sibling prefixes, relative and empty entries, Copilot's home's config.json (with comments), and
 * folders trusted for this session only.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { canonicalPath, isFolderTrusted, mayRun, outermost, trustFolder, trustRootOf } from "../../src/config/folder-trust.js";
import { parseJsonWithComments } from "../../src/util/json-with-comments.js";
import { tempDir } from "../support/engine-harness.js";

function trusting(...folders: string[]): string {
  const home = tempDir("trust-home-");
  writeFileSync(path.join(home, "config.json"), JSON.stringify({ trustedFolders: folders }));
  return home;
}

function repository(): { root: string; sub: string; hooks: string; agent: string; rootMcp: string; subMcp: string } {
  const root = tempDir("trust-repo-");
  const sub = path.join(root, "packages", "app");
  mkdirSync(sub, { recursive: true });
  mkdirSync(path.join(root, ".github", "hooks"), { recursive: true });
  return {
    root,
    sub,
    hooks: path.join(root, ".github", "hooks", "guard.json"),
    agent: path.join(root, ".github", "agents", "helper.agent.md"),
    rootMcp: path.join(root, ".mcp.json"),
    subMcp: path.join(sub, ".vscode", "mcp.json"),
  };
}

describe("mayRun", () => {
  it("lets the user's own files run and holds a repository's back until its folder is trusted", () => {
    const repo = repository();
    const untrusted = trusting();
    expect(mayRun(path.join(untrusted, "hooks", "mine.json"), "user", untrusted)).toEqual({ allowed: true });
    expect(mayRun(repo.hooks, "repository", untrusted)).toEqual({ allowed: false, folder: repo.root, reason: `${repo.root} is not a trusted folder` });
    expect(mayRun(repo.hooks, "repository", trusting(repo.root))).toEqual({ allowed: true });
  });

  it("judges a .github or .vscode file by the folder above it, so trusting a subfolder never trusts the root's files", () => {
    const repo = repository();
    expect(trustRootOf(repo.hooks)).toBe(repo.root);
    expect(trustRootOf(repo.agent)).toBe(repo.root);
    expect(trustRootOf(path.join(repo.root, ".github", "mcp.json"))).toBe(repo.root);
    expect(trustRootOf(repo.subMcp)).toBe(repo.sub);
    expect(trustRootOf(repo.rootMcp)).toBe(repo.root);
    const subOnly = trusting(repo.sub);
    for (const file of [repo.hooks, repo.agent, repo.rootMcp]) expect(mayRun(file, "repository", subOnly)).toMatchObject({ allowed: false, folder: repo.root });
    expect(mayRun(repo.subMcp, "repository", subOnly)).toEqual({ allowed: true });
    // The root covers its subfolders.
    expect(mayRun(repo.subMcp, "repository", trusting(repo.root))).toEqual({ allowed: true });
  });

  it("compares through symlinks: a trusted link covers the real folder, and a link inside a trusted folder to elsewhere does not", () => {
    const repo = repository();
    const links = tempDir("trust-links-");
    symlinkSync(repo.root, path.join(links, "repo-link"));
    expect(mayRun(repo.hooks, "repository", trusting(path.join(links, "repo-link")))).toEqual({ allowed: true });
    // The same repository reached through the link, with the real folder trusted.
    const viaLink = path.join(links, "repo-link", ".github", "hooks", "guard.json");
    expect(mayRun(viaLink, "repository", trusting(repo.root))).toEqual({ allowed: true });
    // A trusted folder holding a link to an untrusted repository does not trust what the link points at.
    const trustedParent = tempDir("trust-parent-");
    symlinkSync(repo.root, path.join(trustedParent, "inside"));
    expect(mayRun(path.join(trustedParent, "inside", ".github", "hooks", "guard.json"), "repository", trusting(trustedParent))).toMatchObject({
      allowed: false,
    });
  });

  it("resolves `..` as the file system does, and a sibling whose name starts the same is not covered", () => {
    const repo = repository();
    expect(mayRun(repo.hooks, "repository", trusting(path.join(repo.sub, "..", "..")))).toEqual({ allowed: true });
    expect(mayRun(repo.hooks, "repository", trusting(`${repo.root}-other`))).toMatchObject({ allowed: false });
    expect(mayRun(path.join(repo.sub, "..", "..", ".github", "hooks", "x.json"), "repository", trusting(repo.sub))).toMatchObject({
      allowed: false,
      folder: repo.root,
    });
    // `..` after a symlink goes where the kernel goes (the link's target's parent), not back up the link's path.
    const links = tempDir("trust-dotdot-");
    symlinkSync(repo.sub, path.join(links, "app"));
    // (Written as the string a person would put in config.json: path.join would fold the `..` lexically.)
    const throughLink = `${links}/app/..`;
    expect(canonicalPath(throughLink)).toBe(path.join(repo.root, "packages"));
    expect(isFolderTrusted(trusting(throughLink), path.join(repo.root, "packages", "lib"))).toBe(true);
    expect(isFolderTrusted(trusting(throughLink), links)).toBe(false);
  });

  it("ignores entries that are not absolute paths: an empty or relative one trusts nothing (not the process's cwd)", () => {
    const repo = repository();
    for (const entry of ["", " ", ".", "./", "packages", "~"]) {
      expect(isFolderTrusted(trusting(entry), process.cwd())).toBe(false);
      expect(mayRun(repo.hooks, "repository", trusting(entry))).toMatchObject({ allowed: false });
    }
    const home = tempDir("trust-junk-");
    writeFileSync(path.join(home, "config.json"), JSON.stringify({ trustedFolders: [42, null, { path: repo.root }, repo.root] }));
    expect(mayRun(repo.hooks, "repository", home)).toEqual({ allowed: true });
    writeFileSync(path.join(home, "config.json"), "{ not json");
    expect(mayRun(repo.hooks, "repository", home)).toMatchObject({ allowed: false });
  });

  it("reads Copilot's home's config.json too (JSON with comments), and folders trusted for this session only", () => {
    const repo = repository();
    const agentHome = trusting();
    const copilotHome = tempDir("trust-copilot-");
    writeFileSync(
      path.join(copilotHome, "config.json"),
      `// Copilot's managed file\n{\n  "firstLaunchAt": "2025-01-01", /* kept */\n  "trustedFolders": [\n    "${repo.root}", // mine\n  ],\n}\n`,
    );
    expect(mayRun(repo.hooks, "repository", { agentHome })).toMatchObject({ allowed: false });
    expect(mayRun(repo.hooks, "repository", { agentHome, copilotHome })).toEqual({ allowed: true });
    expect(mayRun(repo.hooks, "repository", { agentHome, trustedThisSession: [repo.root] })).toEqual({ allowed: true });
    expect(mayRun(repo.hooks, "repository", { agentHome, trustedThisSession: [repo.sub] })).toMatchObject({ allowed: false });
  });
});

describe("trustFolder", () => {
  it("remembers the canonical folder in our config.json only, once, keeping its other keys", () => {
    const repo = repository();
    const home = tempDir("trust-write-");
    writeFileSync(path.join(home, "config.json"), JSON.stringify({ theme: "dark" }));
    const links = tempDir("trust-write-links-");
    symlinkSync(repo.root, path.join(links, "r"));
    trustFolder(home, path.join(links, "r"));
    trustFolder(home, repo.root);
    const written = JSON.parse(readFileSync(path.join(home, "config.json"), "utf8")) as { theme: string; trustedFolders: string[] };
    expect(written).toEqual({ theme: "dark", trustedFolders: [repo.root] });
  });

  it("picks the outermost of nested folders to ask about", () => {
    expect(outermost(["/r/packages/app", "/r", "/r/packages/app"])).toBe("/r");
    expect(outermost([])).toBeUndefined();
  });
});

describe("parseJsonWithComments", () => {
  it("reads comments and trailing commas and leaves strings alone", () => {
    expect(parseJsonWithComments('{"a": "// not a comment", /* c */ "b": ["x,]", 2,], // end\n}')).toEqual({ a: "// not a comment", b: ["x,]", 2] });
    expect(parseJsonWithComments('{"q": "say \\"hi\\" // still"}')).toEqual({ q: 'say "hi" // still' });
    expect(() => parseJsonWithComments("{ nope")).toThrow();
  });
});

/**
 * The decision function as a table: every rule form (shell, shell(cmd), shell(cmd:*), write, write(path), read,
 * read(path), url, url(pattern), plain tool names) from every source (--allow-tool, --deny-tool, --allow-url,
 * --deny-url, settings.json permissions.allow|deny|ask, allowedUrls, deniedUrls, remembered approvals), and the
 * flags (--allow-all-tools, --allow-all-paths, --allow-all-urls). Each row goes through the real analysis and path
 * gate (test/support/permission-check.ts) and says which verdict, and what named it.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Settings } from "../../src/config/settings.js";
import type { PermissionRequest } from "../../src/protocol/events/index.js";
import type { Approvals, Need } from "../../src/permissions/approvals.js";
import type { Decision } from "../../src/permissions/decide.js";
import type { PermissionFlags } from "../../src/permissions/policy.js";
import { checkPermission, shell } from "../support/permission-check.js";
import { tempDir } from "../support/temp-dirs.js";

const root = tempDir("perm-table-");
const ws = path.join(root, "ws");
const outside = path.join(root, "outside");
const home = path.join(root, "home");
for (const dir of [path.join(ws, ".git"), path.join(ws, "config"), outside, home]) mkdirSync(dir, { recursive: true });
writeFileSync(path.join(ws, "README.md"), "# readme\n");
writeFileSync(path.join(outside, "secret.txt"), "s\n");
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Call {
  request: PermissionRequest;
  tool: string;
}
interface Row extends Call {
  name: string;
  flags?: Partial<PermissionFlags>;
  settings?: Settings;
  approvals?: Partial<Approvals>;
  verdict: Decision["verdict"];
  /** A substring of decision.reason. */
  reason?: string;
  /** decision.rule?.text: the rule that decided a deny or an ask. */
  rule?: string;
  /** The kinds of decision.needs, in order. */
  needs?: Need["kind"][];
}

const inWs = (file: string) => path.join(ws, file);
const sh = (command: string): Call => ({ request: shell(command), tool: "bash" });
const write = (file: string, tool: "create" | "edit" = "create"): Call => ({ request: { kind: "write", fileName: file, diff: "", intention: "x" }, tool });
const read = (file: string, tool: "view" | "grep" | "glob" = "view"): Call => ({ request: { kind: "read", path: file, intention: "x" }, tool });
/** The URL gate alone: the fetching tool itself is allowed by name (the fetching tool needs no approval of its own). */
const fetch = (url: string): Call => ({ request: { kind: "url", url, intention: "x" }, tool: "web_fetch" });
const FETCH = ["web_fetch"];
/** A change to memory's stores, from any of its tools: the rule family is `memory`. */
const memory = (tool: "store_memory" | "vote_memory" | "context_board" = "store_memory"): Call => ({
  request: { kind: "memory", subject: "tests", fact: "Run npm test.", citations: "package.json:3" },
  tool,
});

const rows: Row[] = [
  // ── shell, no rules ──
  { name: "read-only command, no flags", ...sh("git status"), verdict: "allow", reason: "read-only" },
  { name: "writing command, no flags", ...sh("git push"), verdict: "ask", reason: "`git push` needs approval", needs: ["command"] },
  { name: "redirection is a write, no flags", ...sh("echo hi > out.txt"), verdict: "ask", needs: ["write"] },
  // ── shell / shell(cmd) / shell(cmd:*) ──
  {
    name: "bare shell allows any command",
    ...sh("touch a && git push"),
    flags: { allowTool: ["shell"] },
    verdict: "allow",
    reason: "allowed by `shell` (--allow-tool)",
  },
  {
    name: "bare shell does not allow writes through redirection",
    ...sh("echo x > out.txt"),
    flags: { allowTool: ["shell"] },
    verdict: "ask",
    needs: ["write"],
  },
  {
    name: "shell(git push) matches git push with arguments",
    ...sh("git push origin main"),
    flags: { allowTool: ["shell(git push)"] },
    verdict: "allow",
    reason: "`shell(git push)` (--allow-tool)",
  },
  {
    name: "shell(git push) does not match git pull",
    ...sh("git pull"),
    flags: { allowTool: ["shell(git push)"] },
    verdict: "ask",
    reason: "`git pull` needs approval",
  },
  {
    name: "shell(git push) needs every segment allowed",
    ...sh("git push && git pull"),
    flags: { allowTool: ["shell(git push)"] },
    verdict: "ask",
    needs: ["command"],
  },
  { name: "shell(git push) does not match git push-x", ...sh("git push-x"), flags: { allowTool: ["shell(git push)"] }, verdict: "ask" },
  { name: "shell(git:*) matches git fetch", ...sh("git fetch origin"), flags: { allowTool: ["shell(git:*)"] }, verdict: "allow", reason: "`shell(git:*)`" },
  {
    name: "shell(git:*) does not match gitea",
    ...sh("gitea status"),
    flags: { allowTool: ["shell(git:*)"] },
    verdict: "ask",
    reason: "`gitea` needs approval",
  },
  { name: "shell(git:*) does not match git-lfs", ...sh("git-lfs pull"), flags: { allowTool: ["shell(git:*)"] }, verdict: "ask" },
  { name: "shell(npm run:*) matches npm run test", ...sh("npm run test -- --watch"), flags: { allowTool: ["shell(npm run:*)"] }, verdict: "allow" },
  {
    name: "shell(npm run:*) does not match npm install",
    ...sh("npm install"),
    flags: { allowTool: ["shell(npm run:*)"] },
    verdict: "ask",
    reason: "`npm install` needs approval",
  },
  { name: "shell(npm test) matches the subcommand identifier", ...sh("npm test"), flags: { allowTool: ["shell(npm test)"] }, verdict: "allow" },
  { name: "an allowed program reached by its full path", ...sh("/usr/bin/touch a"), flags: { allowTool: ["shell(touch)"] }, verdict: "allow" },
  {
    name: "one allowed segment does not carry another",
    ...sh("touch a; rm b"),
    flags: { allowTool: ["shell(touch)"] },
    verdict: "ask",
    reason: "`rm` needs approval",
  },
  { name: "two rules from one flag value", ...sh("touch a; rm b"), flags: { allowTool: ["shell(touch),shell(rm)"] }, verdict: "allow" },
  {
    name: "deny shell(git push) with the rule named",
    ...sh("git push --force"),
    flags: { denyTool: ["shell(git push)"] },
    verdict: "deny",
    rule: "shell(git push)",
    reason: "denied due to the following rules: `shell(git push)` (--deny-tool)",
  },
  { name: "deny shell(git push) leaves git pull to ask", ...sh("git pull"), flags: { denyTool: ["shell(git push)"] }, verdict: "ask" },
  {
    name: "deny beats --allow-all-tools",
    ...sh("git push"),
    flags: { denyTool: ["shell(git push)"], allowAllTools: true },
    verdict: "deny",
    rule: "shell(git push)",
  },
  {
    name: "deny beats an allow rule, whatever the order",
    ...sh("git push"),
    flags: { allowTool: ["shell(git:*)"], denyTool: ["shell(git push)"] },
    verdict: "deny",
  },
  { name: "deny shell(git:*) even refuses read-only git", ...sh("git status"), flags: { denyTool: ["shell(git:*)"] }, verdict: "deny", rule: "shell(git:*)" },
  {
    name: "deny in one segment refuses the whole command",
    ...sh("ls && curl https://example.com"),
    flags: { denyTool: ["shell(curl)"], allowAllTools: true },
    verdict: "deny",
  },
  { name: "deny bare shell refuses even ls", ...sh("ls"), flags: { denyTool: ["shell"] }, verdict: "deny", rule: "shell" },
  // ── plain tool names ──
  {
    name: "plain name bash allows any command",
    ...sh("touch a"),
    flags: { allowTool: ["bash"] },
    verdict: "allow",
    reason: "allowed by `bash` (--allow-tool)",
  },
  { name: "deny plain name bash", ...sh("ls"), flags: { denyTool: ["bash"] }, verdict: "deny", rule: "bash" },
  { name: "deny plain name view", ...read(inWs("README.md")), flags: { denyTool: ["view"] }, verdict: "deny", rule: "view" },
  { name: "deny view leaves grep alone", ...read(ws, "grep"), flags: { denyTool: ["view"] }, verdict: "allow", reason: "read-only" },
  { name: "allow plain name edit", ...write(inWs("README.md"), "edit"), flags: { allowTool: ["edit"] }, verdict: "allow", reason: "`edit` (--allow-tool)" },
  { name: "allow edit does not allow create", ...write(inWs("new.txt"), "create"), flags: { allowTool: ["edit"] }, verdict: "ask", needs: ["write"] },
  {
    name: "deny edit beats --allow-all-tools",
    ...write(inWs("README.md"), "edit"),
    flags: { denyTool: ["edit"], allowAllTools: true },
    verdict: "deny",
    rule: "edit",
  },
  // ── memory (every change to the stores, whichever tool makes it) ──
  { name: "a memory asks with no flags", ...memory(), verdict: "ask", needs: ["tool"], reason: "changing the memories needs approval" },
  { name: "allow memory allows storing", ...memory(), flags: { allowTool: ["memory"] }, verdict: "allow", reason: "`memory` (--allow-tool)" },
  { name: "allow memory allows a vote and the board", ...memory("context_board"), flags: { allowTool: ["memory"] }, verdict: "allow" },
  { name: "allow store_memory by name allows only that tool", ...memory("vote_memory"), flags: { allowTool: ["store_memory"] }, verdict: "ask" },
  { name: "deny memory beats --allow-all-tools", ...memory(), flags: { denyTool: ["memory"], allowAllTools: true }, verdict: "deny", rule: "memory" },
  { name: "settings permissions.allow memory", ...memory("vote_memory"), settings: { permissions: { allow: ["memory"] } }, verdict: "allow" },
  { name: "a session approval of memory covers every memory tool", ...memory("vote_memory"), approvals: { tools: new Set(["memory"]) }, verdict: "allow" },
  { name: "allow write does not allow memory", ...memory(), flags: { allowTool: ["write"] }, verdict: "ask", needs: ["tool"] },
  // ── write / write(path) ──
  { name: "create asks with no flags", ...write(inWs("new.txt")), verdict: "ask", needs: ["write"], reason: "writing" },
  { name: "edit asks with no flags", ...write(inWs("README.md"), "edit"), verdict: "ask", needs: ["write"] },
  {
    name: "bare write allows create",
    ...write(inWs("new.txt")),
    flags: { allowTool: ["write"] },
    verdict: "allow",
    reason: "allowed by `write` (--allow-tool)",
  },
  { name: "bare write allows a redirection", ...sh("echo x > out.txt"), flags: { allowTool: ["write"] }, verdict: "allow", reason: "`write`" },
  { name: "bare write does not allow a writing program", ...sh("touch a"), flags: { allowTool: ["write"] }, verdict: "ask", needs: ["command"] },
  { name: "write(.env) matches ./.env", ...write(inWs(".env"), "edit"), flags: { allowTool: ["write(.env)"] }, verdict: "allow" },
  { name: "write(.env) matches a trailing component", ...write(inWs("config/.env"), "edit"), flags: { allowTool: ["write(.env)"] }, verdict: "allow" },
  { name: "write(.env) does not match .env.local", ...write(inWs(".env.local")), flags: { allowTool: ["write(.env)"] }, verdict: "ask" },
  { name: "write(.env) does not match prod.env", ...write(inWs("prod.env")), flags: { allowTool: ["write(.env)"] }, verdict: "ask" },
  { name: "write(config/*.json) matches by components", ...write(inWs("config/app.json")), flags: { allowTool: ["write(config/*.json)"] }, verdict: "allow" },
  { name: "write(config/*.json) needs the config component", ...write(inWs("app.json")), flags: { allowTool: ["write(config/*.json)"] }, verdict: "ask" },
  {
    name: "write(src/**) is anchored at the workspace root",
    ...write(inWs("src/a/b.ts")),
    flags: { allowTool: ["write(src/**)"] },
    verdict: "allow",
    reason: "allowed by `write(src/**)` (--allow-tool)",
  },
  {
    name: "write(src/**) does not reach a src/ deeper in the workspace",
    ...write(inWs("vendor/src/a.ts")),
    flags: { allowTool: ["write(src/**)"] },
    verdict: "ask",
    needs: ["write"],
  },
  {
    name: "write(src/**) does not reach a src/ outside the workspace",
    ...write(path.join(outside, "src", "a.ts")),
    flags: { allowTool: ["write(src/**)"] },
    verdict: "ask",
    needs: ["write", "path"],
  },
  {
    name: "write(src/**) outside, even with --add-dir of that directory: still only the workspace's src",
    ...write(path.join(outside, "src", "a.ts")),
    flags: { allowTool: ["write(src/**)"], addDir: [outside] },
    verdict: "ask",
    needs: ["write"],
  },
  {
    name: "write(/abs) outside matches but does not lift the path gate",
    ...write(path.join(outside, "out.txt")),
    flags: { allowTool: [`write(${path.join(outside, "out.txt")})`] },
    verdict: "ask",
    needs: ["path"],
  },
  {
    name: "deny write(src/**) reaches a src/ anywhere",
    ...write(path.join(outside, "src", "a.ts")),
    flags: { denyTool: ["write(src/**)"], allowAllTools: true, allowAllPaths: true },
    verdict: "deny",
    rule: "write(src/**)",
  },
  { name: "write(/abs) matches exactly", ...write(inWs("exact.txt")), flags: { allowTool: [`write(${inWs("exact.txt")})`] }, verdict: "allow" },
  {
    name: "write(/abs) does not match the same name elsewhere",
    ...write(inWs("config/exact.txt")),
    flags: { allowTool: [`write(${inWs("exact.txt")})`] },
    verdict: "ask",
  },
  {
    name: "deny write(.env) beats --allow-all-tools",
    ...write(inWs(".env"), "edit"),
    flags: { denyTool: ["write(.env)"], allowAllTools: true },
    verdict: "deny",
    rule: "write(.env)",
  },
  {
    name: "deny write(.env) reaches a shell redirection",
    ...sh("echo KEY=1 >> .env"),
    flags: { denyTool: ["write(.env)"], allowAllTools: true },
    verdict: "deny",
    rule: "write(.env)",
  },
  {
    name: "deny write(.env) leaves other files",
    ...write(inWs("notes.txt")),
    flags: { denyTool: ["write(.env)"], allowAllTools: true },
    verdict: "allow",
    reason: "--allow-all-tools",
  },
  { name: "deny bare write refuses create", ...write(inWs("new.txt")), flags: { denyTool: ["write"], allowAllTools: true }, verdict: "deny", rule: "write" },
  { name: "deny bare write leaves read-only shell", ...sh("ls"), flags: { denyTool: ["write"] }, verdict: "allow", reason: "read-only" },
  // ── read / read(path) ──
  { name: "view inside needs nothing", ...read(inWs("README.md")), verdict: "allow", reason: "read-only" },
  {
    name: "view outside asks for the path",
    ...read(path.join(outside, "secret.txt")),
    verdict: "ask",
    needs: ["path"],
    reason: "outside the allowed directories",
  },
  {
    name: "read(/abs) does not lift the path gate",
    ...read(path.join(outside, "secret.txt")),
    flags: { allowTool: [`read(${path.join(outside, "secret.txt")})`] },
    verdict: "ask",
    needs: ["path"],
  },
  {
    name: "read(/abs) with --add-dir of its directory lets it in",
    ...read(path.join(outside, "secret.txt")),
    flags: { allowTool: [`read(${path.join(outside, "secret.txt")})`], addDir: [outside] },
    verdict: "allow",
  },
  {
    name: "read(/abs) lets only that file in",
    ...read(path.join(outside, "other.txt")),
    flags: { allowTool: [`read(${path.join(outside, "secret.txt")})`] },
    verdict: "ask",
  },
  { name: "deny read(.env) refuses view .env", ...read(inWs(".env")), flags: { denyTool: ["read(.env)"] }, verdict: "deny", rule: "read(.env)" },
  {
    name: "deny read(.env) refuses cat .env",
    ...sh("cat .env"),
    flags: { denyTool: ["read(.env)"], allowAllTools: true },
    verdict: "deny",
    rule: "read(.env)",
  },
  { name: "deny read(.env) leaves README", ...sh("cat README.md"), flags: { denyTool: ["read(.env)"] }, verdict: "allow" },
  { name: "deny bare read refuses glob", ...read(ws, "glob"), flags: { denyTool: ["read"] }, verdict: "deny", rule: "read" },
  {
    name: "settings deny read(.env) names its source",
    ...read(inWs(".env")),
    settings: { permissions: { deny: ["read(.env)"] } },
    verdict: "deny",
    reason: "(settings.json permissions.deny)",
  },
  // ── paths: --allow-all-paths, --add-dir ──
  { name: "--allow-all-paths lifts the gate for view", ...read(path.join(outside, "secret.txt")), flags: { allowAllPaths: true }, verdict: "allow" },
  { name: "--allow-all-paths lifts the gate for cat", ...sh(`cat ${path.join(outside, "secret.txt")}`), flags: { allowAllPaths: true }, verdict: "allow" },
  {
    name: "--allow-all-paths does not approve a write",
    ...write(path.join(outside, "x.txt")),
    flags: { allowAllPaths: true },
    verdict: "ask",
    needs: ["write"],
  },
  {
    name: "--allow-all-tools does not lift the path gate",
    ...read(path.join(outside, "secret.txt")),
    flags: { allowAllTools: true },
    verdict: "ask",
    needs: ["path"],
  },
  {
    name: "--add-dir lets an outside dir in",
    ...sh(`cat ${path.join(outside, "secret.txt")}`),
    flags: { addDir: [outside] },
    verdict: "allow",
    reason: "read-only",
  },
  { name: "outside write needs both the write and the path", ...sh(`echo x > ${path.join(outside, "x")}`), verdict: "ask", needs: ["write", "path"] },
  // ── settings.json sources, ask rules ──
  {
    name: "settings allow",
    ...sh("make build"),
    settings: { permissions: { allow: ["shell(make:*)"] } },
    verdict: "allow",
    reason: "`shell(make:*)` (settings.json permissions.allow)",
  },
  {
    name: "settings deny beats --allow-all-tools",
    ...sh("curl https://example.com"),
    flags: { allowAllTools: true, allowAllUrls: true },
    settings: { permissions: { deny: ["shell(curl)"] } },
    verdict: "deny",
    rule: "shell(curl)",
  },
  {
    name: "settings ask beats an allow rule",
    ...sh("git push"),
    flags: { allowTool: ["shell(git:*)"] },
    settings: { permissions: { ask: ["shell(git push)"] } },
    verdict: "ask",
    rule: "shell(git push)",
    reason: "asks for approval",
  },
  {
    name: "settings ask beats --allow-all-tools",
    ...sh("git push"),
    flags: { allowAllTools: true },
    settings: { permissions: { ask: ["shell(git push)"] } },
    verdict: "ask",
    rule: "shell(git push)",
  },
  { name: "settings ask even for read-only", ...sh("git log"), settings: { permissions: { ask: ["shell(git log)"] } }, verdict: "ask", rule: "shell(git log)" },
  {
    name: "ask on write(.env) beats bare write allow",
    ...write(inWs(".env"), "edit"),
    flags: { allowTool: ["write"] },
    settings: { permissions: { ask: ["write(.env)"] } },
    verdict: "ask",
    rule: "write(.env)",
  },
  {
    name: "deny beats ask",
    ...sh("git push"),
    settings: { permissions: { ask: ["shell(git push)"], deny: ["shell(git:*)"] } },
    verdict: "deny",
    rule: "shell(git:*)",
  },
  // ── approvals remembered ──
  { name: "approved command stem", ...sh("git push origin"), approvals: { commands: new Set(["git push"]) }, verdict: "allow", reason: "approved earlier" },
  {
    name: "approved stem does not cover another",
    ...sh("git push; git reset --hard"),
    approvals: { commands: new Set(["git push"]) },
    verdict: "ask",
    reason: "`git reset` needs approval",
  },
  { name: "approved write of a path", ...write(inWs("new.txt")), approvals: { writes: new Set([inWs("new.txt")]) }, verdict: "allow" },
  {
    name: "a write approval is for its path only",
    ...write(inWs("other.txt")),
    approvals: { writes: new Set([inWs("new.txt")]) },
    verdict: "ask",
    needs: ["write"],
  },
  {
    name: "approved outside path",
    ...read(path.join(outside, "secret.txt")),
    approvals: { paths: new Set([path.join(outside, "secret.txt")]) },
    verdict: "allow",
  },
  {
    name: "approvals do not beat deny",
    ...sh("git push"),
    flags: { denyTool: ["shell(git push)"] },
    approvals: { commands: new Set(["git push"]) },
    verdict: "deny",
  },
  {
    name: "approved tool by name",
    ...fetch("https://example.com/"),
    approvals: { tools: new Set(["web_fetch"]) },
    flags: { allowAllUrls: true },
    verdict: "allow",
  },
  // ── url / url(pattern), --allow-url, --deny-url, allowedUrls, deniedUrls, --allow-all-urls ──
  {
    name: "URL asks with no flags",
    ...fetch("https://example.com/"),
    flags: { allowTool: FETCH },
    verdict: "ask",
    needs: ["url"],
    reason: "https://example.com is not an allowed URL",
  },
  { name: "--allow-url bare domain means https", ...fetch("https://example.com/a"), flags: { allowTool: FETCH, allowUrl: ["example.com"] }, verdict: "allow" },
  {
    name: "--allow-url bare domain is not http",
    ...fetch("http://example.com/a"),
    flags: { allowTool: FETCH, allowUrl: ["example.com"] },
    verdict: "ask",
    needs: ["url"],
  },
  { name: "url(http://…) is not https", ...fetch("https://example.com/"), flags: { allowTool: [...FETCH, "url(http://example.com)"] }, verdict: "ask" },
  {
    name: "url(https://*.example.com) matches a subdomain",
    ...fetch("https://api.example.com/v1"),
    flags: { allowTool: [...FETCH, "url(https://*.example.com)"] },
    verdict: "allow",
  },
  {
    name: "url(https://*.example.com) does not match evilexample.com",
    ...fetch("https://evilexample.com/"),
    flags: { allowTool: [...FETCH, "url(https://*.example.com)"] },
    verdict: "ask",
  },
  {
    name: "url(https://*.example.com) does not match example.com.evil.net",
    ...fetch("https://example.com.evil.net/"),
    flags: { allowTool: [...FETCH, "url(https://*.example.com)"] },
    verdict: "ask",
  },
  {
    name: "userinfo does not fool the host match",
    ...fetch("https://example.com@evil.net/"),
    flags: { allowTool: FETCH, allowUrl: ["example.com"] },
    verdict: "ask",
  },
  { name: "host match ignores case", ...fetch("https://EXAMPLE.com/"), flags: { allowTool: FETCH, allowUrl: ["example.com"] }, verdict: "allow" },
  { name: "url pattern with a port", ...fetch("https://example.com/"), flags: { allowTool: FETCH, allowUrl: ["https://example.com:8443"] }, verdict: "ask" },
  {
    name: "url pattern with a path prefix",
    ...fetch("https://docs.example.com/other"),
    settings: { allowedUrls: ["https://docs.example.com/guide"] },
    flags: { allowTool: FETCH },
    verdict: "ask",
  },
  {
    name: "settings allowedUrls",
    ...fetch("https://docs.example.com/guide/intro"),
    settings: { allowedUrls: ["https://docs.example.com/guide"] },
    flags: { allowTool: FETCH },
    verdict: "allow",
  },
  { name: "bare url rule allows every URL", ...fetch("http://anything.test/"), flags: { allowTool: [...FETCH, "url"] }, verdict: "allow" },
  {
    name: "--deny-url beats --allow-all-urls",
    ...fetch("https://example.com/"),
    flags: { allowAllTools: true, allowAllUrls: true, denyUrl: ["example.com"] },
    verdict: "deny",
    reason: "`url(example.com)` (--deny-url)",
  },
  {
    name: "settings deniedUrls",
    ...fetch("https://tracker.example.com/"),
    flags: { allowAllTools: true, allowAllUrls: true },
    settings: { deniedUrls: ["https://*.example.com"] },
    verdict: "deny",
    reason: "settings.json deniedUrls",
  },
  { name: "--allow-all-urls", ...fetch("http://anything.test/x"), flags: { allowTool: FETCH, allowAllUrls: true }, verdict: "allow" },
  { name: "--allow-all-tools does not lift the URL gate", ...fetch("https://example.com/"), flags: { allowAllTools: true }, verdict: "ask", needs: ["url"] },
  {
    name: "approved origin",
    ...fetch("https://example.com/a"),
    flags: { allowTool: FETCH },
    approvals: { origins: new Set(["https://example.com"]) },
    verdict: "allow",
  },
  {
    name: "approved origin is not another port",
    ...fetch("https://example.com:8443/a"),
    flags: { allowTool: FETCH },
    approvals: { origins: new Set(["https://example.com"]) },
    verdict: "ask",
  },
  { name: "a URL in a shell command is gated too", ...sh("curl https://example.com/x"), flags: { allowTool: ["shell(curl)"] }, verdict: "ask", needs: ["url"] },
  {
    name: "a URL in a shell command with its rule",
    ...sh("curl https://example.com/x"),
    flags: { allowTool: ["shell(curl)"], allowUrl: ["example.com"] },
    verdict: "allow",
  },
  { name: "deny url reaches a shell command", ...sh("curl https://example.com/x"), flags: { allowAllTools: true, denyUrl: ["example.com"] }, verdict: "deny" },
  // ── --allow-all-tools ──
  { name: "--allow-all-tools allows a writing command", ...sh("touch a"), flags: { allowAllTools: true }, verdict: "allow", reason: "--allow-all-tools" },
  { name: "--allow-all-tools allows create", ...write(inWs("new.txt")), flags: { allowAllTools: true }, verdict: "allow", reason: "--allow-all-tools" },
  { name: "an unparsable command asks even under --allow-all-tools", ...sh("$CMD x"), flags: { allowAllTools: true }, verdict: "ask", needs: ["confirm"] },
];

/** Decisions the first version got wrong (found by this table), kept so they stay right. */
const formerGaps: Row[] = [
  // --allow-url / --allow-all-urls answer the URL, but a url request from a tool that is not view/grep/glob also needs
  // the tool approved by name (decide.ts unmetNeeds: `!READ_TOOLS.has(toolName) && !toolAllowed`), so neither flag
  // alone ever lets web_fetch through.
  { name: "--allow-url alone allows fetching that URL", ...fetch("https://example.com/a"), flags: { allowUrl: ["example.com"] }, verdict: "allow" },
  { name: "--allow-all-urls alone allows fetching", ...fetch("https://example.com/a"), flags: { allowAllUrls: true }, verdict: "allow" },
];

async function run(row: Row): Promise<Decision> {
  return checkPermission(row.request, row.tool, {
    cwd: ws,
    homeDir: home,
    env: { HOME: home, PATH: "/usr/bin:/bin" },
    flags: { disallowTempDir: true, ...row.flags },
    ...(row.settings ? { settings: row.settings } : {}),
    ...(row.approvals ? { approvals: row.approvals } : {}),
  });
}

function expectRow(decision: Decision, row: Row): void {
  const detail = `${decision.verdict}: ${decision.reason}`;
  expect(decision.verdict, detail).toBe(row.verdict);
  if (row.reason !== undefined) expect(decision.reason).toContain(row.reason);
  if (row.rule !== undefined) {
    expect(decision.verdict === "allow" ? undefined : decision.rule?.text, detail).toBe(row.rule);
  }
  if (row.needs !== undefined) expect(decision.verdict === "ask" ? decision.needs.map((need) => need.kind) : [], detail).toEqual(row.needs);
}

describe("decision table", () => {
  it("has at least 60 rows with distinct names", () => {
    expect(rows.length).toBeGreaterThanOrEqual(60);
    expect(new Set(rows.map((row) => row.name)).size).toBe(rows.length);
  });
  it.each(rows)("$name → $verdict", async (row) => expectRow(await run(row), row));
  it.each(formerGaps)("found bypass: $name → $verdict", async (row) => expectRow(await run(row), row));
});

describe("rule syntax errors name their source", () => {
  it.each([
    [{ allowTool: ["shell()"] }, "--allow-tool"],
    [{ denyTool: ["shell(:*)"] }, "--deny-tool"],
    [{ allowUrl: ["https://"] }, "--allow-url"],
  ] as const)("%j is refused", async (flags, source) => {
    await expect(checkPermission(shell("ls"), "bash", { cwd: ws, flags })).rejects.toThrow(source);
  });
});

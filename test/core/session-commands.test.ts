/**
 * The session commands through the core's input router, against a real session: what each shows, and that
 * each change is a command with its event (/rename, /cwd, /add-dir, /instructions, /session delete).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { InputResult } from "../../src/protocol/commands.js";
import { readMetadata, writeMetadata } from "../../src/session/session-metadata.js";
import { startHarness, tempDir, type Harness } from "../support/engine-harness.js";
import { text, toolCall } from "../support/scripted-server.js";

let harness: Harness | undefined;
const made: string[] = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A temp dir this test removes afterwards. */
const scratch = (prefix: string): string => {
  const dir = tempDir(prefix);
  made.push(dir);
  return dir;
};

const input = (h: Harness, line: string): Promise<InputResult> => h.session.dispatch({ type: "input", text: line });
const lastInfo = (h: Harness) => h.ofType("session.info").at(-1)?.data.message ?? "";
const lastWarning = (h: Harness) => h.ofType("session.warning").at(-1)?.data.message ?? "";
const systemPrompt = (h: Harness) => String(h.server.completionRequests.at(-1)?.body.messages[0]?.content ?? "");

function git(cwd: string, ...args: string[]): void {
  execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd, stdio: "ignore" });
}

describe("/session", () => {
  it("info (also the default) names the id, folder, log and plan", async () => {
    harness = await startHarness();
    expect(await input(harness, "/session")).toEqual({ kind: "done" });
    const info = lastInfo(harness);
    expect(info).toContain(harness.session.id);
    expect(info).toContain(path.join(harness.session.dir, "events.jsonl"));
    expect(info).toMatch(/Plan\s+none/);
    await input(harness, "/session info");
    expect(lastInfo(harness)).toBe(info);
  });

  it("plan shows plan.md as a block, or says there is none", async () => {
    harness = await startHarness();
    await input(harness, "/session plan");
    expect(lastInfo(harness)).toContain("no plan yet");
    writeFileSync(path.join(harness.session.dir, "plan.md"), "# Plan\n1. Do it.\n");
    expect(await input(harness, "/session plan")).toEqual({ kind: "show", title: path.join(harness.session.dir, "plan.md"), text: "# Plan\n1. Do it.\n" });
  });

  it("checkpoints lists the numbered files of checkpoints/ and shows one by number", async () => {
    harness = await startHarness();
    await input(harness, "/session checkpoints");
    expect(lastInfo(harness)).toContain("No compaction checkpoints yet");
    const folder = path.join(harness.session.dir, "checkpoints");
    mkdirSync(folder);
    writeFileSync(path.join(folder, "002-tests.md"), "# Added the tests\nmore\n");
    writeFileSync(path.join(folder, "001-start.md"), "# Started the cache\n");
    writeFileSync(path.join(folder, "notes.txt"), "not a checkpoint");
    await input(harness, "/session checkpoints");
    expect(lastInfo(harness)).toMatch(/2 checkpoint\(s\)[\s\S]*1\. Started the cache\n\s+2\. Added the tests/);
    expect(await input(harness, "/session checkpoints 2")).toEqual({ kind: "show", title: "002-tests.md", text: "# Added the tests\nmore\n" });
    await input(harness, "/session checkpoints 7");
    expect(lastWarning(harness)).toContain("No checkpoint 7");
  });

  it("files lists the session folder", async () => {
    harness = await startHarness();
    await input(harness, "/session files");
    expect(lastInfo(harness)).toMatch(/events\.jsonl\s+\d/);
    expect(lastInfo(harness)).toContain("workspace.yaml");
  });

  it("delete refuses the running session and removes another one", async () => {
    harness = await startHarness();
    await input(harness, `/session delete ${harness.session.id}`);
    expect(lastWarning(harness)).toContain("running session");
    expect(existsSync(harness.session.dir)).toBe(true);
    const other = harness.store.create();
    writeFileSync(harness.store.eventsFileOf(other), "");
    await input(harness, `/session delete ${other}`);
    expect(existsSync(harness.store.dirOf(other))).toBe(false);
    expect(lastInfo(harness)).toBe(`Deleted session ${other}.`);
    await input(harness, "/session delete nothing-like-it");
    expect(lastWarning(harness)).toContain("No session matches");
  });

  it("an unknown subcommand gives the usage", async () => {
    harness = await startHarness();
    await input(harness, "/session frobnicate");
    expect(lastWarning(harness)).toContain("Usage: /session [info|plan|checkpoints [n]|files|rename <name>|delete <id|name>]");
  });
});

describe("/rename", () => {
  it("renames through session.title_changed; the name is kept for listing and --resume <name>", async () => {
    harness = await startHarness();
    await input(harness, "/rename  Cache   work ");
    expect(harness.ofType("session.title_changed").map((event) => event.data.title)).toEqual(["Cache work"]);
    const metadata = await readMetadata(harness.session.dir);
    expect(metadata).toMatchObject({ name: "Cache work", userNamed: true });
    expect(await harness.store.resolve("cache work")).toEqual({ ok: true, id: harness.session.id });
    await input(harness, "/session rename Second name");
    expect((await readMetadata(harness.session.dir))?.name).toBe("Second name");
  });

  it("refuses a name another session has (any case): --resume <name> would not know which", async () => {
    harness = await startHarness();
    const other = harness.store.create();
    writeFileSync(harness.store.eventsFileOf(other), "");
    const now = new Date().toISOString();
    writeMetadata(harness.store.dirOf(other), {
      id: other,
      cwd: harness.cwd,
      name: "Cache work",
      userNamed: true,
      createdAt: now,
      updatedAt: now,
      eventCount: 0,
    });
    expect(await input(harness, "/rename cache WORK")).toEqual({ kind: "done", error: expect.stringContaining(`Session ${other} is already named`) });
    expect(harness.ofType("session.title_changed")).toEqual([]);
    await input(harness, "/rename Cache work 2");
    expect(harness.ofType("session.title_changed").map((event) => event.data.title)).toEqual(["Cache work 2"]);
  });

  it("without a name, names the session after its first prompt", async () => {
    harness = await startHarness();
    await input(harness, "/rename");
    expect(lastWarning(harness)).toContain("Nothing to name the session after yet");
    harness.server.enqueue(text("Sure."));
    await harness.session.send("Add a cache to the user lookup so repeated requests are fast, please.");
    await input(harness, "/rename");
    expect(harness.ofType("session.title_changed").at(-1)?.data.title).toBe("Add a cache to the user lookup so repeated");
  });
});

describe("/share", () => {
  it("writes the conversation as Markdown with tool calls collapsed", async () => {
    harness = await startHarness({ allowAllTools: true });
    writeFileSync(path.join(harness.cwd, "notes.txt"), "hello notes\n");
    harness.server.enqueue(toolCall("view", { path: "notes.txt" }), text("The notes say **hello**."));
    await harness.session.send("What do the notes say?");
    await input(harness, "/share");
    const file = path.join(harness.cwd, `agent-session-${harness.session.id.slice(0, 8)}.md`);
    expect(lastInfo(harness)).toBe(`Conversation saved to ${file}`);
    const markdown = readFileSync(file, "utf8");
    expect(markdown).toMatch(/^# What do the notes say\?/);
    expect(markdown).toContain("## User\n\nWhat do the notes say?");
    expect(markdown).toContain("## Agent\n\nThe notes say **hello**.");
    expect(markdown).toMatch(/<details>\n<summary>✓ .*\(view\)<\/summary>[\s\S]*hello notes[\s\S]*<\/details>/);
  });

  it("html writes a self-contained page where the conversation's text is escaped", async () => {
    harness = await startHarness();
    harness.server.enqueue(text('Use <script>alert("x")</script> & <b>bold</b>'));
    await harness.session.send("Show me <img src=x onerror=alert(1)>");
    const target = path.join(harness.cwd, "out", "page.html");
    await input(harness, "/share html out/page.html");
    const html = readFileSync(target, "utf8");
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;");
    expect(html).toContain("Show me &lt;img src=x onerror=alert(1)&gt;");
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).not.toMatch(/<link|src="http/);
  });

  it("shows a command's turn as the command typed, its template collapsed", async () => {
    harness = await startHarness();
    harness.server.enqueue(text("Report written."));
    const routed = await input(harness, "/research how caching works");
    if (routed.kind === "prompt") await routed.run;
    await input(harness, "/share");
    const markdown = readFileSync(path.join(harness.cwd, `agent-session-${harness.session.id.slice(0, 8)}.md`), "utf8");
    expect(markdown).toMatch(/^# \/research how caching works\n/);
    expect(markdown).toContain("## User\n\n`/research how caching works`\n\n<details>\n<summary>The prompt /research sent</summary>");
    expect(markdown).toContain("how caching works");
    await input(harness, "/share html");
    const html = readFileSync(path.join(harness.cwd, `agent-session-${harness.session.id.slice(0, 8)}.html`), "utf8");
    expect(html).toContain('<div class="text">/research how caching works</div><details><summary>The prompt /research sent</summary><pre>');
  });

  it("never overwrites a file it did not write; a directory gets the default name inside it", async () => {
    harness = await startHarness();
    harness.server.enqueue(text("Hi."));
    await harness.session.send("hello");
    writeFileSync(path.join(harness.cwd, "notes.md"), "precious\n");
    expect(await input(harness, "/share file notes.md")).toEqual({ kind: "done", error: expect.stringContaining("already exists") });
    expect(readFileSync(path.join(harness.cwd, "notes.md"), "utf8")).toBe("precious\n");
    mkdirSync(path.join(harness.cwd, "exports"));
    await input(harness, "/share file exports");
    const file = path.join(harness.cwd, "exports", `agent-session-${harness.session.id.slice(0, 8)}.md`);
    expect(lastInfo(harness)).toBe(`Conversation saved to ${file}`);
    await input(harness, "/share file exports");
    expect(lastInfo(harness)).toBe(`Conversation saved to ${file}`);
  });

  it("says when there is nothing to share", async () => {
    harness = await startHarness();
    await input(harness, "/share");
    expect(lastWarning(harness)).toContain("Nothing to share yet");
  });
});

describe("/copy", () => {
  it("hands the face the last answer, or warns when there is none", async () => {
    harness = await startHarness();
    expect(await input(harness, "/copy")).toEqual({ kind: "done" });
    expect(lastWarning(harness)).toContain("no answer to copy");
    harness.server.enqueue(text("First."), text("Second answer."));
    await harness.session.send("one");
    await harness.session.send("two");
    expect(await input(harness, "/copy")).toEqual({ kind: "copy", text: "Second answer." });
  });
});

describe("/diff", () => {
  it("shows staged, unstaged and untracked changes; says when there are none or no repository", async () => {
    harness = await startHarness();
    await input(harness, "/diff");
    expect(lastWarning(harness)).toContain("not in a git repository");
    git(harness.cwd, "init", "-q");
    writeFileSync(path.join(harness.cwd, "a.txt"), "one\ntwo\n");
    git(harness.cwd, "add", "a.txt");
    git(harness.cwd, "commit", "-q", "-m", "first");
    await input(harness, "/diff");
    expect(lastInfo(harness)).toContain("No changes");
    writeFileSync(path.join(harness.cwd, "a.txt"), "one\nTWO\n");
    writeFileSync(path.join(harness.cwd, "new.txt"), "fresh\n");
    const result = await input(harness, "/diff");
    expect(result.kind).toBe("diff");
    if (result.kind !== "diff") return;
    expect(result.patch).toContain("-two\n+TWO");
    expect(result.patch).toContain("+++ b/new.txt");
    expect(result.summary).toBe(`2 files changed, +2 -1 (${harness.cwd})`);
    expect(harness.server.completionRequests).toHaveLength(0);
  });
});

describe("/add-dir, /list-dirs and /cwd", () => {
  it("/add-dir lets tools read another directory without asking, and /list-dirs shows it", async () => {
    const outside = scratch("agent-outside-");
    writeFileSync(path.join(outside, "data.txt"), "outside data\n");
    harness = await startHarness({ permissions: { disallowTempDir: true } });
    harness.server.enqueue(toolCall("view", { path: path.join(outside, "data.txt") }), text("Refused."));
    await harness.session.send("read it");
    expect(harness.ofType("tool.execution_complete").at(-1)?.data.success).toBe(false);
    await input(harness, `/add-dir ${outside}`);
    expect(harness.ofType("session.permissions_changed").at(-1)?.data.directories).toContain(outside);
    harness.server.enqueue(toolCall("view", { path: path.join(outside, "data.txt") }), text("Read."));
    await harness.session.send("read it again");
    expect(harness.ofType("tool.execution_complete").at(-1)?.data.result?.content).toContain("outside data");
    await input(harness, "/list-dirs");
    expect(lastInfo(harness)).toMatch(new RegExp(`${harness.cwd}\\s+working directory`));
    expect(lastInfo(harness)).toMatch(new RegExp(`${outside}\\s+/add-dir`));
    expect(lastInfo(harness)).toContain("session folder");
    await input(harness, `/add-dir ${outside}`);
    expect(lastWarning(harness)).toContain("already allowed");
    mkdirSync(path.join(harness.cwd, "inner"));
    await input(harness, "/add-dir inner");
    expect(lastWarning(harness)).toContain(`${path.join(harness.cwd, "inner")} is already allowed`);
    await input(harness, "/add-dir /no/such/dir");
    expect(lastWarning(harness)).toContain("/no/such/dir is not a directory");
  });

  it("a relative --add-dir keeps meaning the directory it was given from after /cwd", async () => {
    const base = scratch("agent-base-");
    mkdirSync(path.join(base, "work"));
    mkdirSync(path.join(base, "shared"));
    writeFileSync(path.join(base, "shared", "data.txt"), "shared data\n");
    harness = await startHarness({ cwd: path.join(base, "work"), permissions: { addDir: ["../shared"], disallowTempDir: true } });
    mkdirSync(path.join(base, "work", "deeper"));
    await input(harness, "/cwd deeper");
    harness.server.enqueue(toolCall("view", { path: path.join(base, "shared", "data.txt") }), text("Read."));
    await harness.session.send("read the shared data");
    expect(harness.ofType("tool.execution_complete").at(-1)?.data.result?.content).toContain("shared data");
    await input(harness, "/list-dirs");
    expect(lastInfo(harness)).toMatch(new RegExp(`${path.join(base, "shared")}\\s+--add-dir`));
  });

  it("/cwd moves the session: session.context_changed, tools run there, the model is told", async () => {
    harness = await startHarness({ allowAllTools: true });
    mkdirSync(path.join(harness.cwd, "sub"));
    writeFileSync(path.join(harness.cwd, "sub", "here.txt"), "in sub\n");
    await input(harness, "/cwd");
    expect(lastInfo(harness)).toBe(`Working directory: ${harness.cwd}`);
    await input(harness, "/cwd sub");
    const sub = path.join(harness.cwd, "sub");
    expect(harness.ofType("session.context_changed").at(-1)?.data).toEqual({ cwd: sub });
    expect(harness.session.cwd).toBe(sub);
    expect((await readMetadata(harness.session.dir))?.cwd).toBe(sub);
    harness.server.enqueue(toolCall("view", { path: "here.txt" }), text("ok"));
    await harness.session.send("look");
    expect(harness.ofType("tool.execution_complete").at(-1)?.data.result?.content).toContain("in sub");
    expect(systemPrompt(harness)).toContain(`Working directory: ${sub}`);
    await input(harness, "/cwd nowhere");
    expect(lastWarning(harness)).toContain("is not a directory");
  });
});

describe("/instructions, /env and /init", () => {
  it("/instructions lists the files and switches one off for the session (the model stops getting it)", async () => {
    const cwd = scratch("agent-cwd-");
    writeFileSync(path.join(cwd, "AGENTS.md"), "Always answer in French.\n");
    harness = await startHarness({ cwd });
    await input(harness, "/instructions");
    expect(lastInfo(harness)).toContain(`1. [on] ${path.join(cwd, "AGENTS.md")}`);
    harness.server.enqueue(text("Bonjour."), text("Hello."));
    await harness.session.send("hi");
    expect(systemPrompt(harness)).toContain("Always answer in French.");
    await input(harness, "/instructions off 1");
    expect(harness.ofType("session.instructions_changed").at(-1)?.data).toEqual({ path: path.join(cwd, "AGENTS.md"), enabled: false, active: [] });
    await harness.session.send("hi again");
    expect(systemPrompt(harness)).not.toContain("Always answer in French.");
    await input(harness, "/instructions");
    expect(lastInfo(harness)).toContain("1. [off]");
    await input(harness, "/instructions off 9");
    expect(lastWarning(harness)).toContain("Usage: /instructions");
  });

  it("/env lists what is loaded and from where", async () => {
    const cwd = scratch("agent-cwd-");
    writeFileSync(path.join(cwd, "AGENTS.md"), "Be brief.\n");
    harness = await startHarness({ cwd });
    await input(harness, "/env");
    const report = lastInfo(harness);
    expect(report).toContain(`Instructions:\n  ${path.join(cwd, "AGENTS.md")}`);
    expect(report).toMatch(/Agents:\n(\s+.*\n)*\s+explore \(builtin\)/);
    expect(report).toContain("Hooks:\n  none");
    expect(report).toContain("MCP servers:\n  none");
    expect(report).toContain("Skills:");
  });

  it("/init asks the agent to write .github/copilot-instructions.md, folding in AGENTS.md", async () => {
    const cwd = scratch("agent-cwd-");
    writeFileSync(path.join(cwd, "AGENTS.md"), "Use tabs.\n");
    harness = await startHarness({ cwd });
    harness.server.enqueue(text("Written."));
    const routed = await input(harness, "/init");
    expect(routed.kind).toBe("prompt");
    if (routed.kind === "prompt") await routed.run;
    const sent = String(harness.server.completionRequests[0]?.body.messages.at(-1)?.content);
    expect(sent).toContain(path.join(cwd, ".github", "copilot-instructions.md"));
    expect(sent).toContain(`instructions for other agents: ${path.join(cwd, "AGENTS.md")}`);
    expect(sent).not.toContain("{{");
    // The template is the command's, not the user's words: faces show `/init` as typed.
    expect(harness.ofType("user.message").at(-1)?.data.source).toBe("command:init");
  });
});

describe("lifecycle commands", () => {
  it("/new and /clear start a new session, /exit and /quit exit, an unknown command names the closest", async () => {
    harness = await startHarness();
    expect(await input(harness, "/new")).toEqual({ kind: "new-session" });
    expect(await input(harness, "/clear")).toEqual({ kind: "new-session" });
    expect(await input(harness, "/exit")).toEqual({ kind: "exit" });
    expect(await input(harness, "/quit")).toEqual({ kind: "exit" });
    expect(await input(harness, "/sesion info")).toEqual({ kind: "unknown-command", name: "sesion" });
    expect(lastWarning(harness)).toBe("Unknown command: /sesion (did you mean /session?)");
    await input(harness, "/list-dir");
    expect(lastWarning(harness)).toBe("Unknown command: /list-dir (did you mean /list-dirs?)");
  });
});

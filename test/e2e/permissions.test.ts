import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../support/engine-harness.js";
import { suggestedArgv } from "../support/advice-flags.js";
import { runAgent } from "../support/run-agent.js";
import { text, toolCall } from "../support/scripted-server.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";

let adviceOutside = "";
const ws = useE2eWorkspace({ prefix: "perm" });
beforeEach(() => {
  mkdirSync(path.join(ws.cwd, ".git"));
});

const toolResult = () => String(ws.server.completionRequests.at(-1)?.body.messages.find((message) => message.role === "tool")?.content);

describe("permissions in agent -p", () => {
  it("a deny rule wins over --allow-all-tools: nothing is deleted, the model is told which rule, the run ends", async () => {
    writeFileSync(path.join(ws.cwd, "victim.txt"), "precious");
    ws.server.enqueue(toolCall("bash", { command: "echo cleaning && rm victim.txt", description: "Clean" }), text("I was not allowed to delete it."));
    const run = await runAgent(["-p", "delete victim.txt", "--allow-all-tools", "--deny-tool", "shell(rm)"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(existsSync(path.join(ws.cwd, "victim.txt"))).toBe(true);
    expect(toolResult()).toBe("Permission to run this tool was denied due to the following rules: `shell(rm)` (--deny-tool)");
    expect(run.stdout).toBe("I was not allowed to delete it.\n");
  });

  it("shell(git:*) does not approve what is chained after git", async () => {
    writeFileSync(path.join(ws.cwd, "keep.txt"), "x");
    ws.server.enqueue(toolCall("bash", { command: "git status; rm keep.txt", description: "Sneaky" }), text("ok"));
    const run = await runAgent(["-p", "x", "--allow-tool", "shell(git:*)"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(existsSync(path.join(ws.cwd, "keep.txt"))).toBe(true);
    expect(toolResult()).toMatch(/`rm` needs approval.*--allow-tool 'shell\(rm\)'/s);
  });

  it("a path outside the workspace is refused, and --add-dir allows it", async () => {
    const outside = tempDir("perm-outside-");
    writeFileSync(path.join(outside, "secret.txt"), "the secret");
    ws.server.enqueue(toolCall("view", { path: path.join(outside, "secret.txt") }), text("could not"));
    const refused = await runAgent(["-p", "read it", "--disallow-temp-dir"], { env: ws.env(), cwd: ws.cwd });
    expect(refused.code).toBe(0);
    expect(toolResult()).toContain("outside the allowed directories");
    expect(toolResult()).toContain(`--add-dir ${outside} `);
    expect(toolResult()).not.toContain("the secret");

    ws.server.enqueue(toolCall("view", { path: path.join(outside, "secret.txt") }), text("read it"));
    const allowed = await runAgent(["-p", "read it", "--disallow-temp-dir", "--add-dir", outside], { env: ws.env(), cwd: ws.cwd });
    expect(allowed.code).toBe(0);
    expect(toolResult()).toContain("1. the secret");
  });

  it("with TMPDIR elsewhere, a workspace under /tmp cannot write its neighbours; TMPDIR itself is writable", async () => {
    const slash = realpathSync(mkdtempSync("/tmp/perm-e2e-tmpdir-"));
    try {
      for (const dir of ["ws/.git", "neighbour", "mytmp"]) mkdirSync(path.join(slash, dir), { recursive: true });
      const neighbour = path.join(slash, "neighbour", "x.txt");
      const inTemp = path.join(slash, "mytmp", "x.txt");
      ws.server.enqueue(toolCall("create", { path: neighbour, file_text: "x" }), toolCall("create", { path: inTemp, file_text: "t" }), text("ok"));
      const tmpEnv = { ...ws.env(), TMPDIR: path.join(slash, "mytmp") };
      const run = await runAgent(["-p", "write", "--allow-all-tools"], { env: tmpEnv, cwd: path.join(slash, "ws") });
      expect(run.code).toBe(0);
      expect(existsSync(neighbour)).toBe(false);
      expect(readFileSync(inTemp, "utf8")).toBe("t");
    } finally {
      rmSync(slash, { recursive: true, force: true });
    }
  });

  it.each([
    ["a command", () => toolCall("bash", { command: "touch made.txt", description: "Touch" }), () => existsSync(path.join(ws.cwd, "made.txt"))],
    [
      "a new file in a new directory outside",
      () => toolCall("create", { path: path.join(adviceOutside, "new", "x.txt"), file_text: "x" }),
      () => existsSync(path.join(adviceOutside, "new", "x.txt")),
    ],
    ["a read of a file outside", () => toolCall("view", { path: path.join(adviceOutside, "seen.txt") }), () => toolResult().includes("1. seen")],
    [
      "a command writing outside",
      () => toolCall("bash", { command: `echo hi > '${path.join(adviceOutside, "out.txt")}'`, description: "Write" }),
      () => existsSync(path.join(adviceOutside, "out.txt")),
    ],
  ])("%s: every alternative the denial suggests lets the call run", async (_name, call, ran) => {
    adviceOutside = tempDir("perm-advice-out-");
    writeFileSync(path.join(adviceOutside, "seen.txt"), "seen");
    ws.server.enqueue(call(), text("refused"));
    await runAgent(["-p", "go", "--disallow-temp-dir"], { env: ws.env(), cwd: ws.cwd });
    expect(ran()).toBe(false);
    const alternatives = suggestedArgv(toolResult());
    expect(alternatives.length, toolResult()).toBe(3);
    for (const flags of alternatives) {
      rmSync(path.join(adviceOutside, "new"), { recursive: true, force: true });
      rmSync(path.join(ws.cwd, "made.txt"), { force: true });
      rmSync(path.join(adviceOutside, "out.txt"), { force: true });
      ws.server.enqueue(call(), text("done"));
      const run = await runAgent(["-p", "go", "--disallow-temp-dir", ...flags], { env: ws.env(), cwd: ws.cwd });
      expect(run.code, `${flags.join(" ")}: ${run.stderr}`).toBe(0);
      expect(ran(), `${flags.join(" ")}: ${toolResult()}`).toBe(true);
    }
  });

  it("reads deny rules from settings.json", async () => {
    writeFileSync(path.join(ws.home, "settings.json"), JSON.stringify({ permissions: { deny: ["write(.env)"] } }));
    ws.server.enqueue(toolCall("create", { path: path.join(ws.cwd, ".env"), file_text: "TOKEN=1" }), text("ok"));
    await runAgent(["-p", "x", "--yolo"], { env: ws.env(), cwd: ws.cwd });
    expect(existsSync(path.join(ws.cwd, ".env"))).toBe(false);
    expect(toolResult()).toContain("`write(.env)` (settings.json permissions.deny)");
  });

  it("refuses catastrophic commands even with --yolo", async () => {
    ws.server.enqueue(toolCall("bash", { command: "rm -rf ~", description: "Tidy" }), text("ok"));
    const run = await runAgent(["-p", "x", "--yolo"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(toolResult()).toMatch(/Refused: `rm -rf .*` would delete your home directory.*recursive-delete/);
    expect(existsSync(ws.home)).toBe(true);
  });

  it("an edit of .git/config asks even under --allow-tool write, so a later git status runs nothing", async () => {
    const repo = tempDir("perm-repo-");
    execFileSync("git", ["init", "-q", repo], { env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" } });
    const config = path.join(repo, ".git", "config");
    const before = readFileSync(config, "utf8");
    const marker = path.join(repo, "fsmonitor-ran");
    ws.server.enqueue(
      toolCall("edit", { path: config, old_str: "[core]", new_str: `[core]\n\tfsmonitor = touch ${marker}` }),
      toolCall("bash", { command: "git status", description: "Status" }),
      text("done"),
    );
    const run = await runAgent(["-p", "x", "--allow-tool", "write", "--allow-tool", "shell(git:*)"], { env: ws.env(), cwd: repo });
    expect(run.code).toBe(0);
    expect(readFileSync(config, "utf8")).toBe(before);
    expect(existsSync(marker)).toBe(false);
    const editResult = String(ws.server.completionRequests.at(-2)?.body.messages.find((message) => message.role === "tool")?.content);
    expect(editResult).toContain(".git/config is git configuration that can run programs");
    expect(run.stderr).toContain("its effect cannot be checked, so no allow rule approves it");
  });

  it("with a deny rule in force, --allow-all-tools does not approve inline interpreter code: denied with the reason", async () => {
    const fixture = tempDir("perm-fixture-");
    const victim = path.join(fixture, "victim.txt");
    writeFileSync(victim, "precious");
    ws.server.enqueue(toolCall("bash", { command: `perl -e 'unlink "${victim}"'`, description: "Clean" }), text("It was refused."));
    const run = await runAgent(["-p", "x", "--deny-tool", "shell(rm)", "--allow-all-tools"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(existsSync(victim)).toBe(true);
    expect(run.stderr).toContain("perl is given code inline");
    expect(run.stderr).toContain("its effect cannot be checked against the deny rule `shell(rm)` (--deny-tool), so --allow-all-tools does not approve it");
    expect(toolResult()).toMatch(/^Permission denied: .*perl is given code inline.*no interactive user response was available/s);
  });

  it("words after a redirection are the command's: `find > /dev/null . -delete` is refused with no flags and in plan mode", async () => {
    const keep = path.join(ws.cwd, "keep.txt");
    writeFileSync(keep, "precious");
    const command = "find > /dev/null . -name keep.txt -delete";
    ws.server.enqueue(toolCall("bash", { command, description: "Tidy" }), text("refused"));
    const headless = await runAgent(["-p", "x"], { env: ws.env(), cwd: ws.cwd });
    expect(headless.code, headless.stderr).toBe(0);
    expect(existsSync(keep)).toBe(true);
    expect(toolResult()).toMatch(/`find` needs approval.*no interactive user response was available/s);

    ws.server.enqueue(toolCall("bash", { command, description: "Tidy" }), text("refused"));
    const planned = await runAgent(["-p", "x", "--mode", "plan", "--yolo"], { env: ws.env(), cwd: ws.cwd });
    expect(planned.code, planned.stderr).toBe(0);
    expect(existsSync(keep)).toBe(true);
    expect(toolResult()).toMatch(/^In plan mode a shell command runs only when it is known to be read-only/);
  });

  it("a file named after a redirection is read only inside the allowed directories", async () => {
    const outside = tempDir("perm-outside-");
    writeFileSync(path.join(outside, "secret.txt"), "the secret");
    ws.server.enqueue(toolCall("bash", { command: `cat 2>/dev/null '${path.join(outside, "secret.txt")}'`, description: "Read" }), text("could not"));
    const run = await runAgent(["-p", "read it", "--allow-all-tools", "--disallow-temp-dir"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code, run.stderr).toBe(0);
    expect(toolResult()).toContain("outside the allowed directories");
    expect(toolResult()).not.toContain("the secret");
  });

  it("rejects a malformed rule before starting, with exit code 2", async () => {
    const run = await runAgent(["-p", "x", "--allow-tool", "shell(git"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--allow-tool: "shell(git" is not a rule');
    expect(ws.server.completionRequests).toHaveLength(0);
  });
});

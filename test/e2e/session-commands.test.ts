/** The session commands with the real binary: `agent -p "/session info"`, /share, /diff, /cwd, /rename then resume by name, /copy. */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runAgent } from "../support/run-agent.js";
import { text } from "../support/scripted-server.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";

const ws = useE2eWorkspace({ removeDirs: true });

const agent = (...args: string[]) => runAgent(args, { env: ws.env(), cwd: ws.cwd });
const onlySession = () => readdirSync(path.join(ws.home, "session-state"))[0] as string;
const log = (id: string) => readFileSync(path.join(ws.home, "session-state", id, "events.jsonl"), "utf8");

describe("agent -p with the session commands", () => {
  it('-p "/session info" prints the session on stdout without calling the model', async () => {
    ws.server.enqueue(text("Hello."));
    expect((await agent("-p", "hello")).code).toBe(0);
    const id = onlySession();
    const run = await agent("--resume", id, "-s", "-p", "/session info");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Session\\s+${id}`));
    expect(run.stdout).toContain(path.join(ws.home, "session-state", id, "events.jsonl"));
    expect(ws.server.completionRequests).toHaveLength(1);
  });

  it("/share file and /share html write the transcript where asked", async () => {
    ws.server.enqueue(text("Use <b>a cache</b>."));
    await agent("-p", "How do I speed up <lookups>?");
    const id = onlySession();
    const out = path.join(ws.cwd, "shared");
    const markdown = await agent("--resume", id, "-p", `/share file ${path.join(out, "t.md")}`);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain(`Conversation saved to ${path.join(out, "t.md")}`);
    expect(readFileSync(path.join(out, "t.md"), "utf8")).toContain("## Agent\n\nUse <b>a cache</b>.");
    await agent("--resume", id, "-p", `/share html ${path.join(out, "t.html")}`);
    const html = readFileSync(path.join(out, "t.html"), "utf8");
    expect(html).toContain("How do I speed up &lt;lookups&gt;?");
    expect(html).toContain("Use &lt;b&gt;a cache&lt;/b&gt;.");
  });

  it("/diff prints the working tree's changes as a plain patch on stdout", async () => {
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd: ws.cwd, stdio: "ignore" });
    git("init", "-q");
    writeFileSync(path.join(ws.cwd, "a.txt"), "one\n");
    git("add", "a.txt");
    git("commit", "-q", "-m", "first");
    writeFileSync(path.join(ws.cwd, "a.txt"), "one\ntwo\n");
    const run = await agent("-p", "/diff");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^diff --git a\/a\.txt b\/a\.txt\n[\s\S]*\n one\n\+two\n$/);
    expect(run.stdout).not.toContain("\u001b[");
    expect(run.stderr).toContain("1 file changed, +1 -0");
    expect(ws.server.completionRequests).toHaveLength(0);
    // JSON output stays JSON lines: the patch is the result line's answer.
    const json = await agent("--output-format", "json", "-p", "/diff");
    const lines = json.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; answer?: string });
    expect(lines.at(-1)).toMatchObject({ type: "result", answer: expect.stringContaining("+two") });
  });

  it("/cwd moves the session and writes session.context_changed", async () => {
    mkdirSync(path.join(ws.cwd, "sub"));
    const run = await agent("-p", "/cwd sub");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Working directory: ${path.join(ws.cwd, "sub")}`);
    const event = log(onlySession())
      .split("\n")
      .filter((line) => line.includes('"session.context_changed"'))
      .map((line) => JSON.parse(line) as { data: { cwd: string } });
    expect(event.map((item) => item.data.cwd)).toEqual([path.join(ws.cwd, "sub")]);
  });

  it("/rename names the session; --resume <name> finds it; /copy prints the last answer without a terminal", async () => {
    ws.server.enqueue(text("The first answer."));
    await agent("-p", "start");
    const id = onlySession();
    const renamed = await agent("--resume", id, "-p", "/rename Cache work");
    expect(renamed.code).toBe(0);
    const copied = await agent("--resume", "cache work", "-p", "/copy");
    expect(copied.code).toBe(0);
    expect(copied.stdout).toBe("The first answer.\n");
    expect(copied.stderr).toContain("/copy needs the interactive terminal");
    expect(log(id)).toContain('"session.resume"');
  });

  it("an unknown command names the closest one and exits 2", async () => {
    const run = await agent("-p", "/sesion info");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Unknown command: /sesion (did you mean /session?)");
  });
});

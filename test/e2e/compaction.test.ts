/**
 * Compaction, /context and /usage with the real bin/agent against the scripted server: `/compact` on a
 * resumed session, a `-p` run that compacts by itself under a small prompt limit (AGENT_MAX_PROMPT_TOKENS),
 * and the two reports. Needs dist/ (built before vitest runs).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../support/engine-harness.js";
import { agentEnv, runAgent } from "../support/run-agent.js";
import { httpError, startScriptedServer, text, toolCall, type ScriptedServer } from "../support/scripted-server.js";

let server: ScriptedServer;
let home: string;
let cwd: string;
beforeEach(async () => {
  server = await startScriptedServer();
  home = tempDir("compact-e2e-home-");
  cwd = tempDir("compact-e2e-cwd-");
});
afterEach(async () => {
  await server.close();
});

const env = (extra: Record<string, string> = {}) => agentEnv({ home, baseUrl: server.baseUrl, extra });
const onlySession = () => readdirSync(path.join(home, "session-state"))[0] as string;
const SUMMARY = "<overview>Said hello.</overview>\n<next_steps>None</next_steps>\n<checkpoint_title>Greetings</checkpoint_title>";
const contents = (index: number) => (server.completionRequests[index]?.body.messages ?? []).map((message) => String(message.content ?? ""));

describe("compaction with the real agent", () => {
  /** A first run that reads notes.txt with the view tool and answers: a tool exchange of four messages. */
  async function readTheNotes(): Promise<string> {
    writeFileSync(path.join(cwd, "notes.txt"), "NOTES-MARKER-7\n");
    server.enqueue(toolCall("view", { path: path.join(cwd, "notes.txt") }), text("The notes hold a marker."));
    expect((await runAgent(["-p", "what do the notes say?", "--allow-all-tools"], { env: env(), cwd })).code).toBe(0);
    return onlySession();
  }

  it('`-p "/compact"` summarises the whole resumed session, the last tool exchange too; a second /compact is a no-op that says so', async () => {
    const id = await readTheNotes();

    server.enqueue(text(SUMMARY));
    // The outcome is the command's report: stdout, even with -s; the progress line is decoration on stderr.
    const compact = await runAgent(["--resume", id, "-s", "-p", "/compact"], { env: env(), cwd });
    expect(compact.code).toBe(0);
    expect(compact.stderr).toBe("");
    expect(compact.stdout).toMatch(/^Conversation compacted: 4 messages summarised \(.* tokens\) · checkpoint 1: .*001-greetings\.md\n$/);
    expect(server.completionRequests[2]?.body.tool_choice).toBe("none");
    const checkpoint = path.join(home, "session-state", id, "checkpoints", "001-greetings.md");
    expect(readFileSync(checkpoint, "utf8")).toContain("Said hello.");

    // Twice in a row: nothing new to summarise, no model call, nothing changes.
    const again = await runAgent(["--resume", id, "-p", "/compact"], { env: env(), cwd });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("Nothing was compacted: Too little to gain: nothing was added since the last compaction");
    expect(server.completionRequests).toHaveLength(3);

    server.enqueue(text("Still here."));
    expect((await runAgent(["--resume", id, "-p", "are you there?"], { env: env(), cwd })).code).toBe(0);
    const last = server.completionRequests[3]?.body.messages ?? [];
    expect(last.map((message) => message.role)).toEqual(["system", "user", "user"]);
    expect(contents(3)[1]).toContain("Said hello.");
    expect(contents(3)[2]).toContain("are you there?");
    const sent = JSON.stringify(last);
    for (const verbatim of ["NOTES-MARKER-7", "what do the notes say?", "The notes hold a marker.", '"tool_calls"']) expect(sent).not.toContain(verbatim);
  });

  it('`-p "/compact"` that fails says why, changes nothing and exits 3; with nothing or too little to compact it says so', async () => {
    const id = await readTheNotes();
    server.enqueue(httpError(400, { message: "no summaries here" }));
    const failed = await runAgent(["--resume", id, "-p", "/compact"], { env: env(), cwd });
    expect(failed.code).toBe(3);
    expect(failed.stderr).toContain("! Compaction failed, the conversation is unchanged: The summary request failed");
    expect(failed.stderr).toContain("no summaries here");
    expect(existsSync(path.join(home, "session-state", id, "checkpoints"))).toBe(false);

    const fresh = await runAgent(["-p", "/compact"], { env: env(), cwd: tempDir("compact-e2e-fresh-") });
    expect(fresh.code).toBe(0);
    expect(fresh.stderr).toContain("Nothing was compacted: There is nothing to compact yet.");
    expect(server.completionRequests).toHaveLength(3);

    // One short exchange: a summary would be as long as what it replaces.
    const greetingCwd = tempDir("compact-e2e-greeting-");
    const earlier = new Set(readdirSync(path.join(home, "session-state")));
    server.enqueue(text("Hello to you."));
    expect((await runAgent(["-p", "hello there"], { env: env(), cwd: greetingCwd })).code).toBe(0);
    const greeting = readdirSync(path.join(home, "session-state")).find((session) => !earlier.has(session));
    const little = await runAgent(["--resume", greeting as string, "-p", "/compact"], { env: env(), cwd: greetingCwd });
    expect(little.code).toBe(0);
    expect(little.stderr).toMatch(/Nothing was compacted: Too little to gain: only 2 messages \(about \d+ tokens\) so far/);
    expect(server.completionRequests).toHaveLength(4);
  });

  it("a `-p` run compacts by itself before a request past 80% of AGENT_MAX_PROMPT_TOKENS", async () => {
    writeFileSync(path.join(cwd, "notes.txt"), "alpha\n");
    server.enqueue(
      toolCall("view", { path: path.join(cwd, "notes.txt") }, { usage: { prompt_tokens: 9_000, completion_tokens: 10 } }),
      text(SUMMARY),
      text("The notes say alpha."),
    );
    const run = await runAgent(["-p", "what do the notes say?", "--allow-all-tools"], { env: env({ AGENT_MAX_PROMPT_TOKENS: "10000" }), cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("The notes say alpha.");
    expect(run.stderr).toContain("Conversation compacted as the context filled up");
    expect(server.completionRequests[1]?.body.tool_choice).toBe("none");
    expect(contents(2)[1]).toContain("<conversation_summary>");
    const log = readFileSync(path.join(home, "session-state", onlySession(), "events.jsonl"), "utf8");
    expect(log).toContain('"type":"session.compaction_complete"');
  });

  it("settings.json compaction.auto false keeps a -p run from compacting", async () => {
    writeFileSync(path.join(home, "settings.json"), JSON.stringify({ compaction: { auto: false } }));
    server.enqueue(toolCall("view", { path: path.join(cwd, "x") }, { usage: { prompt_tokens: 9_000, completion_tokens: 10 } }), text("No notes."));
    const run = await runAgent(["-p", "notes?", "--allow-all-tools"], { env: env({ AGENT_MAX_PROMPT_TOKENS: "10000" }), cwd });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("Compacting");
    expect(server.completionRequests).toHaveLength(2);
  });
});

describe("/context and /usage with the real agent", () => {
  it("report without a model call, /usage counting the session's earlier runs", async () => {
    const file = path.join(cwd, "made.txt");
    server.enqueue(
      toolCall(
        "create",
        { path: file, file_text: "one\ntwo\n" },
        { usage: { prompt_tokens: 3_000, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 1_000 } } },
      ),
      text("Made it.", { usage: { prompt_tokens: 3_100, completion_tokens: 5 } }),
    );
    expect((await runAgent(["-p", "make a file", "--allow-all-tools"], { env: env(), cwd })).code).toBe(0);
    const id = onlySession();

    // The reports are what the runs were for: stdout (the stats of the run itself go to stderr).
    const context = await runAgent(["--resume", id, "-p", "/context"], { env: env({ AGENT_MAX_PROMPT_TOKENS: "64000" }), cwd });
    expect(context.code).toBe(0);
    expect(context.stdout).toMatch(/^Context: [\d.]+k\/64k tokens \([\d.]+%\) · scripted-model/);
    for (const part of ["System prompt", "Tools", "MCP tools", "Messages (4)", "Free"]) expect(context.stdout).toContain(part);
    expect(context.stdout).toContain("Compacts automatically at 51k (80.0%)");

    const usage = await runAgent(["--resume", id, "-s", "-p", "/usage"], { env: env(), cwd });
    expect(usage.code).toBe(0);
    expect(usage.stdout).toContain("Usage in this session (this run and 2 earlier):");
    expect(usage.stdout).toContain("Requests       2");
    expect(usage.stdout).toMatch(/Tokens +6\.1k in \(1\.0k cached\) · 10 out/);
    expect(usage.stdout).toMatch(/scripted-model +2 req/);
    expect(usage.stdout).toContain("Code changes   +2 -0 in 1 file");
    expect(usage.stdout).toContain(file);
    expect(server.completionRequests).toHaveLength(2);
    expect(existsSync(path.join(home, "session-state", id, "checkpoints"))).toBe(false);
  });
});

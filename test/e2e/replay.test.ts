/**
 * `agent replay`: sessions recorded here from scripted runs of bin/agent (so they stay current) are
 * re-run without a model. A faithful replay reports no divergence (tools run again in a scratch copy of the
 * tree as it was when the session started, or not at all with --dry); when what the agent builds changes,
 * the first request that differs is named, with both sides.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { useAgentQueues, useE2eWorkspace } from "../support/e2e-workspace.js";
import { runAgent } from "../support/run-agent.js";
import { tempDir } from "../support/temp-dirs.js";
import { text, toolCall } from "../support/scripted-server.js";

const queues = useAgentQueues();
const ws = useE2eWorkspace({ prefix: "replay", server: { responder: queues.responder } });

/** A two-prompt session using view, edit, create and bash, a rewind, and a third prompt after it; returns its id. */
async function recordSession(): Promise<string> {
  writeFileSync(path.join(ws.cwd, "readme.md"), "# Demo\nversion 1\n");
  writeFileSync(path.join(ws.cwd, "app.txt"), "color = red\n");
  queues.main.push(
    toolCall("view", { path: "readme.md" }),
    toolCall("edit", { path: "app.txt", old_str: "red", new_str: "blue" }),
    text("Blue now."),
    toolCall("create", { path: "notes/todo.txt", file_text: "- ship\n" }),
    toolCall("bash", { command: "ls notes && cat app.txt", description: "check" }),
    text("Noted."),
    text("Back to blue only."),
  );
  const env = ws.env();
  const first = await runAgent(["-p", "read the readme and make it blue", "--allow-all-tools"], { env, cwd: ws.cwd });
  const id = /agent --resume (\S+)/.exec(first.stderr)?.[1] as string;
  await runAgent(["--resume", id, "-p", "write a todo", "--allow-all-tools"], { env, cwd: ws.cwd });
  await runAgent(["--resume", id, "-p", "/rewind 2"], { env, cwd: ws.cwd });
  await runAgent(["--resume", id, "-p", "where are we?", "--allow-all-tools"], { env, cwd: ws.cwd });
  return id;
}

// The scratch copies go to a temp folder of the test's own, so other runs on the machine cannot touch the count.
let scratchRoot = "";
beforeEach(() => {
  scratchRoot = tempDir("replay-tmp-");
});
const replay = (id: string, ...args: string[]) => runAgent(["replay", id, ...args], { env: { ...ws.env(), TMPDIR: scratchRoot }, cwd: ws.cwd });

describe("agent replay", () => {
  it("re-runs a recorded session in a scratch copy and finds no divergence; --dry too; the working tree is left alone", async () => {
    const id = await recordSession();
    // Changed since the session (by hand): the scratch copy is put back as the session found it.
    writeFileSync(path.join(ws.cwd, "app.txt"), "color = green\n");
    const requests = ws.server.completionRequests.length;
    const run = await replay(id);
    expect(run.stderr).toContain(`Replaying session ${id} (3 prompts, 7 model calls) in a scratch copy of ${ws.cwd}`);
    expect(run.stdout).toContain("✓ No divergence: 7 requests matched the recording.");
    expect(run.code).toBe(0);
    const dry = await replay(id, "--dry");
    expect(dry.stdout).toContain("✓ No divergence: 7 requests matched the recording (tools not run: --dry).");
    expect(dry.code).toBe(0);
    // No request reached the model; the tree and the session list are as they were.
    expect(ws.server.completionRequests.length).toBe(requests);
    expect(readFileSync(path.join(ws.cwd, "app.txt"), "utf8")).toBe("color = green\n");
    expect(existsSync(path.join(ws.cwd, "notes", "todo.txt"))).toBe(false);
    expect(readdirSync(path.join(ws.home, "session-state"))).toEqual([id]);
    expect(readdirSync(scratchRoot)).toEqual([]);
  });

  it("names the first request that differs when the system prompt changed", async () => {
    const id = await recordSession();
    writeFileSync(path.join(ws.home, "copilot-instructions.md"), "Always answer in French.\n");
    const run = await replay(id, "--dry");
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("✗ First divergence at request 1 (main agent, answering prompt 1): message 0, the system message's text.");
    expect(run.stdout).toMatch(/now: .*Always answer in French/s);
  });

  it("names the tool result that differs when a file the agent read is not what it was; --dry, which runs no tool, does not see it", async () => {
    const id = await recordSession();
    writeFileSync(path.join(ws.cwd, "readme.md"), "# Demo\nversion 2\n");
    const run = await replay(id);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("✗ First divergence at request 2 (main agent, answering prompt 1): message 3, the tool message's text.");
    expect(run.stdout).toMatch(/recorded:[^\n]*\n2\. version 1\n/);
    expect(run.stdout).toMatch(/now:[^\n]*\n2\. version 2\n/);
    expect((await replay(id, "--dry")).code).toBe(0);
  });

  it("replays a subagent's calls beside the main agent's", async () => {
    queues.main.push(
      toolCall("task", { description: "look around", prompt: "List what is here.", agent_type: "explore" }, { id: "t1" }),
      text("The agent looked."),
    );
    queues.child.push(toolCall("bash", { command: "ls", description: "list" }), text("Only readme.md."));
    mkdirSync(path.join(ws.cwd, "docs"));
    writeFileSync(path.join(ws.cwd, "readme.md"), "hi\n");
    const first = await runAgent(["-p", "send an agent", "--allow-all-tools"], { env: ws.env(), cwd: ws.cwd });
    const id = /agent --resume (\S+)/.exec(first.stderr)?.[1] as string;
    const run = await replay(id);
    expect(run.stdout).toContain("✓ No divergence: 4 requests matched the recording.");
    expect(run.code).toBe(0);
  });

  it("refuses a session that does not exist", async () => {
    const missing = await replay("no-such-session");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("No session matches");
  });
});

/**
 * Memory through the real binary and the scripted server: the model stores a fact under the `memory`
 * permission (`--allow-tool memory`; refused headless without it; a secret refused before anyone is asked),
 * a new session in the same repository gets it on its board and another repository does not, `/subconscious
 * run` consolidates a session in the background, and `agent memory …` and `/memory` work on the same files.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { git } from "../support/git-repo.js";
import { runAgent } from "../support/run-agent.js";
import { text, toolCall, type CompletionRequest } from "../support/scripted-server.js";
import { useAgentQueues, useE2eWorkspace } from "../support/e2e-workspace.js";

const { main, child, responder } = useAgentQueues();
const ws = useE2eWorkspace({ prefix: "e2e-memory", server: { responder }, removeDirs: true });

const systemPrompt = (request: CompletionRequest | undefined) => String(request?.body.messages[0]?.content ?? "");
const toolNames = (request: CompletionRequest | undefined) =>
  ((request?.body.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);
const toolResults = (request: CompletionRequest | undefined) =>
  (request?.body.messages ?? []).filter((message) => message.role === "tool").map((message) => String(message.content));

function repository(name: string, remote: string): string {
  const dir = path.join(ws.cwd, name);
  mkdirSync(dir);
  git(dir, "init", "-q", "-b", "main");
  git(dir, "remote", "add", "origin", remote);
  return dir;
}

function storeFiles(): string[] {
  const dir = path.join(ws.home, "memory", "repositories");
  try {
    return readdirSync(dir).map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

const STORE = toolCall("store_memory", { subject: "tests", fact: "Run the suite with npm test -- --run.", citations: "package.json:7" });

describe("memory, end to end", () => {
  it("stores a fact under --allow-tool memory; the next session here sees it on its board, another repository does not", async () => {
    const widgets = repository("widgets", "git@github.com:acme/widgets.git");
    const gadgets = repository("gadgets", "git@github.com:acme/gadgets.git");
    main.push(STORE, text("Remembered."));
    const first = await runAgent(["-p", "remember how to test", "--enable-memory", "--allow-tool", "memory"], { env: ws.env(), cwd: widgets });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain("Stored m-");
    expect(toolNames(ws.server.completionRequests[0])).toEqual(expect.arrayContaining(["store_memory", "read_memories", "vote_memory"]));
    // The rem-agent's own tools are not the main agent's.
    expect(toolNames(ws.server.completionRequests[0])).not.toContain("session_digest");
    expect(toolNames(ws.server.completionRequests[0])).not.toContain("context_board");
    const [file] = storeFiles();
    expect(path.basename(file as string)).toMatch(/^github-com-acme-widgets-/);

    main.push(text("Seen."), text("Other."));
    // A clone elsewhere, spelt another way, is the same repository.
    const clone = repository("widgets-clone", "https://github.com/Acme/widgets");
    expect((await runAgent(["-p", "what do you remember?", "--enable-memory"], { env: ws.env(), cwd: clone })).code).toBe(0);
    const board = systemPrompt(ws.server.completionRequests[2]);
    expect(board).toMatch(
      /<context_board>\n[^\n]*may be stale: verify each against the code[\s\S]*\] tests: Run the suite with npm test -- --run\. \(package\.json:7\)/,
    );
    expect((await runAgent(["-p", "what do you remember?", "--enable-memory"], { env: ws.env(), cwd: gadgets })).code).toBe(0);
    expect(systemPrompt(ws.server.completionRequests[3])).not.toContain("<context_board>");
    expect(systemPrompt(ws.server.completionRequests[3])).not.toContain("npm test -- --run");
  });

  it("-p without --enable-memory loads nothing and offers no memory tools, even with memories stored", async () => {
    main.push(STORE, text("Remembered."), text("Plain."));
    await runAgent(["-p", "remember", "--enable-memory", "--allow-tool", "memory"], { env: ws.env(), cwd: ws.cwd });
    expect(storeFiles()).toHaveLength(1);
    await runAgent(["-p", "hello"], { env: ws.env(), cwd: ws.cwd });
    expect(systemPrompt(ws.server.completionRequests[2])).not.toContain("<context_board>");
    expect(toolNames(ws.server.completionRequests[2])).not.toContain("store_memory");
  });

  it("headless denies a memory unless allowed, naming the flag; --deny-tool memory wins over --allow-all-tools; a secret is refused unasked", async () => {
    main.push(STORE, text("Could not."));
    const denied = await runAgent(["-p", "remember", "--enable-memory"], { env: ws.env(), cwd: ws.cwd });
    expect(denied.code).toBe(0);
    expect(toolResults(ws.server.completionRequests[1])[0]).toContain("add --allow-tool memory");
    expect(storeFiles()).toEqual([]);

    main.push(STORE, text("Could not."));
    await runAgent(["-p", "remember", "--enable-memory", "--allow-all-tools", "--deny-tool", "memory"], { env: ws.env(), cwd: ws.cwd });
    expect(toolResults(ws.server.completionRequests[3])[0]).toContain("`memory` (--deny-tool)");
    expect(storeFiles()).toEqual([]);

    main.push(toolCall("store_memory", { subject: "deploy", fact: "Deploy with the token ghp_16C7e42F292c6912E7710c838347Ae178B4a" }), text("Refused."));
    const secret = await runAgent(["-p", "remember the token", "--enable-memory"], { env: ws.env(), cwd: ws.cwd });
    expect(secret.code).toBe(0);
    const result = toolResults(ws.server.completionRequests[5])[0] ?? "";
    // Refused for the secret, not for want of permission: nobody was asked about it.
    expect(result).toContain("Not stored: it contains what looks like a GitHub token");
    expect(result).not.toContain("--allow-tool");
    expect(storeFiles()).toEqual([]);
  });

  it('-p "/subconscious run" starts the rem-agent in the background, which reads the transcript and updates the board', async () => {
    main.push(
      (request) => {
        const prompt = String(request.body.messages.at(-1)?.content ?? "");
        for (const part of ['agent_type: "rem-agent"', 'mode: "background"', 'name: "rem-consolidate"', 'description: "Consolidate session learnings"'])
          expect(prompt).toContain(part);
        return toolCall("task", {
          description: "Consolidate session learnings",
          prompt: "Consolidate this session into the context board.",
          agent_type: "rem-agent",
          name: "rem-consolidate",
          mode: "background",
        });
      },
      text("Consolidation runs in the background."),
      text("The board is updated."),
    );
    child.push(
      toolCall("session_digest", {}),
      (request) => {
        expect(toolResults(request)[0]).toMatch(/USER: \/subconscious run/);
        return toolCall("context_board", { command: "add", subject: "build", fact: "Build with make all.", citations: "Makefile:1" });
      },
      text("Added one memory."),
    );
    const run = await runAgent(["-p", "/subconscious run", "--enable-memory", "--allow-tool", "memory"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    const remRequest = ws.server.completionRequests.find((request) => request.headers["x-initiator"] === "sub-agent");
    expect(systemPrompt(remRequest)).toContain("You are the memory-consolidation agent");
    expect(toolNames(remRequest).sort()).toEqual(["context_board", "read_memories", "session_digest", "store_memory", "vote_memory"]);
    const [file] = storeFiles();
    expect(JSON.parse(readFileSync(file as string, "utf8").trim())).toMatchObject({
      subject: "build",
      fact: "Build with make all.",
      citations: ["Makefile:1"],
    });
    const [id] = readdirSync(path.join(ws.home, "session-state"));
    const events = readFileSync(path.join(ws.home, "session-state", id as string, "events.jsonl"), "utf8");
    expect(events).toMatch(/"type":"subagent.started"[^\n]*"agentName":"rem-agent"[^\n]*"executionMode":"background"/);
  });

  it("the model cannot start the rem-agent on its own, and /subconscious run says so when memory is off", async () => {
    main.push(toolCall("task", { description: "d", prompt: "p", agent_type: "rem-agent" }), text("Could not."));
    await runAgent(["-p", "consolidate", "--enable-memory"], { env: ws.env(), cwd: ws.cwd });
    expect(toolResults(ws.server.completionRequests[1])[0]).toContain('Unknown agent_type "rem-agent"');
    const off = await runAgent(["-p", "/subconscious run"], { env: ws.env(), cwd: ws.cwd });
    expect(off.code).toBe(2);
    expect(off.stderr).toContain("Memory is off in this session: /memory on first (with -p: --enable-memory).");
  });

  it("agent memory list|show|forget|export and /memory on|off|show|forget|edit work on the same store", async () => {
    const repo = repository("r", "git@github.com:acme/r.git");
    main.push(STORE, text("ok"), toolCall("store_memory", { subject: "style", fact: "Use tabs.", scope: "user" }), text("ok"));
    await runAgent(["-p", "a", "--enable-memory", "--allow-tool", "memory"], { env: ws.env(), cwd: repo });
    await runAgent(["-p", "b", "--enable-memory", "--allow-tool", "memory"], { env: ws.env(), cwd: repo });
    const list = await runAgent(["memory", "list"], { env: ws.env(), cwd: repo });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/\[m-[0-9a-f]{8}\] tests: Run the suite/);
    expect(list.stdout).toContain("style: Use tabs. [you, every repository]");
    const id = /\[(m-[0-9a-f]{8})\] tests/.exec(list.stdout)?.[1] as string;
    const show = await runAgent(["memory", "show", "-C", repo], { env: ws.env(), cwd: ws.cwd });
    expect(show.stdout).toContain("This repository (github.com/acme/r): 1 memory in");
    expect(show.stdout).toContain("<context_board>");
    const exported = await runAgent(["memory", "export"], { env: ws.env(), cwd: repo });
    expect(
      exported.stdout
        .trim()
        .split("\n")
        .map((line) => (JSON.parse(line) as { subject: string }).subject),
    ).toEqual(["tests", "style"]);

    const slash = await runAgent(["-p", "/memory"], { env: ws.env(), cwd: repo });
    expect(slash.stdout).toContain("Memory is off in this session");
    expect(slash.stdout).toContain(`[${id}] tests`);
    const edit = await runAgent(["-p", "/memory edit"], { env: ws.env(), cwd: repo });
    expect(edit.stdout.trim()).toMatch(/memory\/repositories\/github-com-acme-r-[0-9a-f]{12}\.jsonl$/);

    const forget = await runAgent(["-p", `/memory forget ${id}`], { env: ws.env(), cwd: repo });
    expect(forget.stdout).toContain(`Forgot ${id} (tests).`);
    const again = await runAgent(["memory", "forget", id], { env: ws.env(), cwd: repo });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no memory ${id} here`);

    writeFileSync(path.join(ws.home, "settings.json"), `${JSON.stringify({ theme: "dark" })}\n`);
    const on = await runAgent(["-p", "/memory on"], { env: ws.env(), cwd: repo });
    expect(on.stdout).toContain("Memory is on");
    expect(JSON.parse(readFileSync(path.join(ws.home, "settings.json"), "utf8"))).toEqual({ theme: "dark", memory: { enabled: true } });
    await runAgent(["-p", "/memory off"], { env: ws.env(), cwd: repo });
    expect(JSON.parse(readFileSync(path.join(ws.home, "settings.json"), "utf8"))).toEqual({ theme: "dark", memory: { enabled: false } });
  });
});

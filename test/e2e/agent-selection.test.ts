/** `--agent` and `/agent` with the real bin/agent against the scripted server. */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runAgent } from "../support/run-agent.js";
import { text } from "../support/scripted-server.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";

const ws = useE2eWorkspace();

function writeAgent(dir: string, name: string, content: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${name}.agent.md`), content);
}

function sent(index = 0): { system: string; tools: string[] } {
  const body = ws.server.completionRequests[index]?.body as
    { messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] } | undefined;
  return {
    system: String(body?.messages.find((message) => message.role === "system")?.content ?? ""),
    tools: (body?.tools ?? []).map((tool) => tool.function.name),
  };
}

describe("--agent", () => {
  it("runs the session as a user agent: its body in the system prompt, its tools only", async () => {
    writeAgent(path.join(ws.home, "agents"), "reader", "---\ndescription: Reads\ntools: [Read, Grep]\n---\nREADER BODY MARKER\n");
    ws.server.enqueue(text("done"));
    const run = await runAgent(["--agent", "reader", "-p", "look around"], { env: ws.env(), cwd: ws.cwd });
    expect(run.stderr).not.toContain("Agent file");
    expect(run.code).toBe(0);
    expect(sent().system).toContain("READER BODY MARKER");
    expect(sent().tools.sort()).toEqual(["grep", "view"]);
  });

  it("prefers the repository's agent over the user's of the same name", async () => {
    execFileSync("git", ["init", "-q"], { cwd: ws.cwd });
    writeAgent(path.join(ws.home, "agents"), "helper", "---\ndescription: user\n---\nUSER HELPER\n");
    writeAgent(path.join(ws.cwd, ".github", "agents"), "helper", "---\ndescription: repo\ntools: [shell]\n---\nREPO HELPER\n");
    ws.server.enqueue(text("done"));
    const run = await runAgent(["--agent", "helper", "-p", "go"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(sent().system).toContain("REPO HELPER");
    expect(sent().system).not.toContain("USER HELPER");
    expect(sent().tools.sort()).toEqual(["bash", "list_bash", "read_bash", "stop_bash"]);
  });

  it("an unknown name exits 2 listing the valid agents, without calling the model", async () => {
    writeAgent(path.join(ws.home, "agents"), "reader", "---\ndescription: Reads\n---\nbody\n");
    const run = await runAgent(["--agent", "bogus", "-p", "hi"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Unknown agent "bogus"');
    expect(run.stderr).toContain("reader");
    expect(run.stderr).toContain("explore");
    expect(ws.server.completionRequests).toHaveLength(0);
  });

  it("a bad agent file is reported on stderr (file and field) while a good one still works", async () => {
    writeAgent(path.join(ws.home, "agents"), "reader", "---\ndescription: Reads\ntools: [view]\n---\nGOOD BODY\n");
    writeAgent(path.join(ws.home, "agents"), "broken", "---\ndescription: d\nmodel: 42\n---\nbody\n");
    ws.server.enqueue(text("fine"));
    const run = await runAgent(["--agent", "reader", "-p", "hi"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("fine");
    expect(run.stderr).toContain(`${path.join(ws.home, "agents", "broken.agent.md")}: field "model"`);
    expect(sent().system).toContain("GOOD BODY");
  });
});

describe("/agent in -p", () => {
  it('-p "/agent reader" selects it, and the log records subagent.selected', async () => {
    writeAgent(path.join(ws.home, "agents"), "reader", "---\ndescription: Reads\ntools: [view]\n---\nbody\n");
    const run = await runAgent(["--output-format", "json", "-p", "/agent reader"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    const selected = run.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; data: unknown })
      .find((event) => event.type === "subagent.selected");
    expect(selected?.data).toEqual({ agentName: "reader", agentDisplayName: "Reader", tools: ["view"] });
  });
});

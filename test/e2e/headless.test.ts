import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { agentEnv, runAgent } from "../support/run-agent.js";
import { httpError, text, toolCall } from "../support/scripted-server.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";
import { sentKey } from "../support/test-wire.js";

const ws = useE2eWorkspace();

const sessions = () => (existsSync(path.join(ws.home, "session-state")) ? readdirSync(path.join(ws.home, "session-state")) : []);

describe("agent -p, text output", () => {
  it("prints the answer alone on stdout, progress and the resume hint on stderr", async () => {
    writeFileSync(path.join(ws.cwd, "a.txt"), "hello\n");
    ws.server.enqueue(toolCall("view", { path: path.join(ws.cwd, "a.txt") }, { text: "Reading.\n" }), text("The file says hello."));
    const run = await runAgent(["-p", "what does a.txt say?"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Reading.\nThe file says hello.\n");
    expect(run.stdout).not.toMatch(/\u001b\[/);
    expect(run.stderr).toContain(`● ${path.join(ws.cwd, "a.txt")}`);
    expect(run.stderr).toContain("└ 1. hello");
    const [id] = sessions();
    expect(run.stderr).toContain(`Resume     agent --resume ${id}`);
    expect(run.stderr).toMatch(/Tokens\s+↑/);
  });

  it("with --silent prints only the final answer", async () => {
    ws.server.enqueue(text("First thought."));
    const run = await runAgent(["-p", "hi", "-s"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("First thought.\n");
    expect(run.stderr).toBe("");
  });

  it("reads the prompt from stdin", async () => {
    ws.server.enqueue(text("got it"));
    const run = await runAgent(["-s"], { env: ws.env(), cwd: ws.cwd, input: "summarise this please" });
    expect(run.stdout).toBe("got it\n");
    const request = ws.server.completionRequests.at(-1)?.body.messages.at(-1);
    expect(String(request?.content)).toContain("summarise this please");
  });

  it("denies a write nobody can approve, tells the model why, writes nothing, and ends on its own", async () => {
    const target = path.join(ws.cwd, "new.txt");
    ws.server.enqueue(toolCall("create", { path: target, file_text: "data" }), text("I could not create the file."));
    const run = await runAgent(["-p", "create new.txt"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(existsSync(target)).toBe(false);
    const toolMessage = ws.server.completionRequests.at(-1)?.body.messages.find((message) => message.role === "tool");
    expect(String(toolMessage?.content)).toMatch(/no interactive user response was available.*--allow-all-tools/s);
    expect(run.stderr).toContain("✗");
  });

  it("runs the same write with --allow-all-tools", async () => {
    const target = path.join(ws.cwd, "new.txt");
    ws.server.enqueue(toolCall("create", { path: target, file_text: "data" }), text("Created."));
    const run = await runAgent(["-p", "create new.txt", "--allow-all-tools"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(readFileSync(target, "utf8")).toBe("data");
    expect(run.stderr).toMatch(/Changes\s+\+1 -0 \(1 file\)/);
  });

  it("runs in the directory given with -C", async () => {
    writeFileSync(path.join(ws.cwd, "marker.txt"), "x");
    ws.server.enqueue(toolCall("bash", { command: "ls", description: "List" }), text("ok"));
    const run = await runAgent(["-C", ws.cwd, "-p", "ls", "-s"], { env: ws.env(), cwd: ws.home });
    expect(run.code).toBe(0);
    const toolMessage = ws.server.completionRequests.at(-1)?.body.messages.find((message) => message.role === "tool");
    expect(String(toolMessage?.content)).toContain("marker.txt");
  });
});

describe("agent -p, json output", () => {
  it("writes every event as a JSON line, ephemeral ones included, then the result", async () => {
    ws.server.enqueue(text("Streaming in several chunks.", { chunkSize: 4 }));
    const run = await runAgent(["-p", "hi", "--output-format", "json"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; ephemeral?: boolean; data?: Record<string, unknown> } & Record<string, unknown>);
    expect(lines[0]?.type).toBe("session.start");
    const sessionId = lines[0]?.data?.sessionId;
    expect(lines.some((line) => line.type === "assistant.message_delta" && line.ephemeral)).toBe(true);
    expect(lines.some((line) => line.type === "session.idle")).toBe(true);
    const result = lines.at(-1);
    expect(result).toMatchObject({ type: "result", sessionId, exitCode: 0, answer: "Streaming in several chunks." });
    expect(result?.usage).toMatchObject({ premiumRequests: 0, requests: 1, codeChanges: { linesAdded: 0, linesRemoved: 0, filesModified: [] } });
    expect(run.stderr).toBe("");
  });
});

describe("exit codes and configuration errors", () => {
  it("exits 1 with how to configure when no endpoint is set, and creates nothing", async () => {
    const run = await runAgent(["-p", "hi"], { env: agentEnv({ home: ws.home }), cwd: ws.cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("OPENAI_BASE_URL");
    expect(run.stderr).toContain("settings.json");
    expect(run.stderr).not.toMatch(/at .+\.js:\d+/);
    expect(run.stdout).toBe("");
    expect(existsSync(path.join(ws.home, "session-state"))).toBe(false);
  });

  it("exits 1 with a readable message for a broken settings.json", async () => {
    writeFileSync(path.join(ws.home, "settings.json"), '{ "provider": { "model": 42 } }');
    const run = await runAgent(["-p", "hi"], { env: agentEnv({ home: ws.home }), cwd: ws.cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/settings.json has invalid settings:\n\s+provider.model/);
  });

  it("takes the endpoint and model from settings.json", async () => {
    writeFileSync(path.join(ws.home, "settings.json"), JSON.stringify({ provider: { baseUrl: ws.server.baseUrl, model: "from-settings" } }));
    ws.server.enqueue(text("configured by file"));
    const run = await runAgent(["-p", "hi", "-s"], { env: agentEnv({ home: ws.home }), cwd: ws.cwd });
    expect(run.stdout).toBe("configured by file\n");
    expect(ws.server.completionRequests.at(-1)?.body.model).toBe("from-settings");
  });

  it("exits 1 when resuming a session that does not exist, and creates nothing", async () => {
    const run = await runAgent(["--resume", "0123456789", "-p", "hi"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/No session matches "0123456789"/);
    expect(sessions()).toEqual([]);
  });

  it("exits 2 on a usage error", async () => {
    const run = await runAgent(["--no-such-flag"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown option");
  });

  it("exits 3 when the endpoint fails, 4 when autopilot hits its limit", async () => {
    ws.server.enqueue(httpError(401, { message: "bad key" }));
    const failed = await runAgent(["-p", "hi"], { env: ws.env(), cwd: ws.cwd });
    expect(failed.code).toBe(3);
    expect(failed.stderr).toMatch(/Authentication failed/);
    ws.server.enqueue(text("a"), text("b"));
    const limited = await runAgent(["-p", "hi", "--autopilot", "--max-autopilot-continues", "1"], { env: ws.env(), cwd: ws.cwd });
    expect(limited.code).toBe(4);
    expect(limited.stderr).toMatch(/Autopilot stopped/);
  });

  it("a 401 names the variable or the settings.json field that held the key", async () => {
    ws.server.enqueue(httpError(401, { message: "bad key" }));
    const fromEnv = await runAgent(["-p", "hi"], { env: ws.env(), cwd: ws.cwd });
    expect(fromEnv.code).toBe(3);
    expect(fromEnv.stderr).toContain("The API key came from OPENAI_API_KEY");
    writeFileSync(path.join(ws.home, "settings.json"), JSON.stringify({ provider: { apiKeyEnv: "TEAM_KEY" } }));
    const { OPENAI_API_KEY: _key, ...env } = ws.env({ TEAM_KEY: "team-secret" });
    ws.server.enqueue(httpError(401, { message: "bad key" }));
    const fromSettings = await runAgent(["-p", "hi"], { env, cwd: ws.cwd });
    expect(fromSettings.code).toBe(3);
    expect(fromSettings.stderr).toContain(`The API key came from TEAM_KEY (named by provider.apiKeyEnv in ${path.join(ws.home, "settings.json")})`);
    expect(sentKey(ws.server.completionRequests.at(-1)?.headers)).toBe("team-secret");
  });

  it("exits 0 in autopilot when the model calls task_complete, printing the summary", async () => {
    ws.server.enqueue(toolCall("task_complete", { summary: "Everything is done." }));
    const run = await runAgent(["-p", "do it", "--autopilot", "-s"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Everything is done.\n");
  });

  it("prints the version and help", async () => {
    const version = await runAgent(["--version"], { env: ws.env(), cwd: ws.cwd });
    expect(version.stdout).toMatch(/^agent \d+\.\d+\.\d+\n$/);
    const help = await runAgent(["--help"], { env: ws.env(), cwd: ws.cwd });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--max-autopilot-continues");
  });
});

describe("resume from the command line", () => {
  it("continues the latest session in this directory with --continue, and by name with --resume", async () => {
    ws.server.enqueue(text("first answer"));
    await runAgent(["-p", "remember the word kiwi", "-n", "Fruit Talk"], { env: ws.env(), cwd: ws.cwd });
    ws.server.enqueue(text("kiwi"));
    const continued = await runAgent(["--continue", "-p", "which word?", "-s"], { env: ws.env(), cwd: ws.cwd });
    expect(continued.stdout).toBe("kiwi\n");
    expect(sessions()).toHaveLength(1);
    const messages = ws.server.completionRequests.at(-1)?.body.messages ?? [];
    expect(messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
    ws.server.enqueue(text("still kiwi"));
    const byName = await runAgent(["--resume", "fruit talk", "-p", "again?", "-s"], { env: ws.env(), cwd: ws.cwd });
    expect(byName.stdout).toBe("still kiwi\n");
    expect(sessions()).toHaveLength(1);
  });

  it("says so when there is nothing to continue", async () => {
    const run = await runAgent(["--continue", "-p", "x"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no session to continue/);
  });
});

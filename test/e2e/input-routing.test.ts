/** `agent -p` routes its prompt through the core's input router, like a line typed in the TUI. */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../support/engine-harness.js";
import { agentEnv, runAgent } from "../support/run-agent.js";
import { startScriptedServer, text, type ScriptedServer } from "../support/scripted-server.js";

let server: ScriptedServer;
let home: string;
let cwd: string;
beforeEach(async () => {
  server = await startScriptedServer();
  home = tempDir("e2e-home-");
  cwd = tempDir("e2e-cwd-");
});
afterEach(async () => {
  await server.close();
});

const env = () => agentEnv({ home, baseUrl: server.baseUrl });

describe("agent -p with a slash command", () => {
  it('-p "/plan add a cache" switches to plan mode and sends only the request', async () => {
    server.enqueue(text("1. Add a cache."));
    const run = await runAgent(["-p", "/plan add a cache"], { env: env(), cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("1. Add a cache.\n");
    const sent = server.completionRequests[0]?.body.messages ?? [];
    const user = String(sent.filter((message) => message.role === "user").at(-1)?.content);
    expect(user).toContain("add a cache");
    expect(user).not.toContain("/plan");
    expect(String(sent[0]?.content)).toContain("plan mode");
    const [id] = readdirSync(path.join(home, "session-state"));
    const log = readFileSync(path.join(home, "session-state", id as string, "events.jsonl"), "utf8");
    expect(log).toContain('"newMode":"plan"');
  });

  it("an unknown command exits 2 with the closest match, without calling the model", async () => {
    const run = await runAgent(["-p", "/autopilto on"], { env: env(), cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Unknown command: /autopilto (did you mean /autopilot?)");
    expect(server.completionRequests).toHaveLength(0);
  });

  it("a command that refuses its arguments says why and exits 2, without calling the model", async () => {
    const research = await runAgent(["-p", "/research"], { env: env(), cwd });
    expect(research.code).toBe(2);
    expect(research.stderr).toContain("Usage: /research <topic>");
    const tasks = await runAgent(["-p", "/tasks view nobody", "--output-format", "json"], { env: env(), cwd });
    expect(tasks.code).toBe(2);
    expect(JSON.parse(tasks.stdout.trim().split("\n").at(-1) as string)).toMatchObject({ outcome: "error", error: { kind: "usage" } });
    const info = await runAgent(["-p", "/session info"], { env: env(), cwd });
    expect(info.code).toBe(0);
    expect(server.completionRequests).toHaveLength(0);
  });
});

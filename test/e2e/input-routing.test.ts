/** `agent -p` routes its prompt through the core's input router, like a line typed in the TUI. */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runAgent } from "../support/run-agent.js";
import { text } from "../support/scripted-server.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";

const ws = useE2eWorkspace();

describe("agent -p with a slash command", () => {
  it('-p "/plan add a cache" switches to plan mode and sends only the request', async () => {
    ws.server.enqueue(text("1. Add a cache."));
    const run = await runAgent(["-p", "/plan add a cache"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("1. Add a cache.\n");
    const sent = ws.server.completionRequests[0]?.body.messages ?? [];
    const user = String(sent.filter((message) => message.role === "user").at(-1)?.content);
    expect(user).toContain("add a cache");
    expect(user).not.toContain("/plan add a cache");
    expect(String(sent[0]?.content)).toContain("plan mode");
    const [id] = readdirSync(path.join(ws.home, "session-state"));
    const log = readFileSync(path.join(ws.home, "session-state", id as string, "events.jsonl"), "utf8");
    expect(log).toContain('"newMode":"plan"');
  });

  it("an unknown command exits 2 with the closest match, without calling the model", async () => {
    const run = await runAgent(["-p", "/autopilto on"], { env: ws.env(), cwd: ws.cwd });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Unknown command: /autopilto (did you mean /autopilot?)");
    expect(ws.server.completionRequests).toHaveLength(0);
  });

  it("a command that refuses its arguments says why and exits 2, without calling the model", async () => {
    const research = await runAgent(["-p", "/research"], { env: ws.env(), cwd: ws.cwd });
    expect(research.code).toBe(2);
    expect(research.stderr).toContain("Usage: /research <topic>");
    const tasks = await runAgent(["-p", "/tasks view nobody", "--output-format", "json"], { env: ws.env(), cwd: ws.cwd });
    expect(tasks.code).toBe(2);
    expect(JSON.parse(tasks.stdout.trim().split("\n").at(-1) as string)).toMatchObject({ outcome: "error", error: { kind: "usage" } });
    const info = await runAgent(["-p", "/session info"], { env: ws.env(), cwd: ws.cwd });
    expect(info.code).toBe(0);
    expect(ws.server.completionRequests).toHaveLength(0);
  });
});

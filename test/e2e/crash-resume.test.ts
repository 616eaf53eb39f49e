import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { collect, runAgent, startAgent } from "../support/run-agent.js";
import { text, toolCall } from "../support/scripted-server.js";
import type { ChildProcess } from "node:child_process";
import { useE2eWorkspace } from "../support/e2e-workspace.js";

const ws = useE2eWorkspace({ prefix: "crash" });

const onlySession = () => readdirSync(path.join(ws.home, "session-state"))[0] as string;

/** Resolves when the child's JSON event stream shows an event of this type. */
function waitForJsonEvent(child: ChildProcess, type: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let buffer = "";
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      if (buffer.split("\n").some((line) => line.includes(`"type":"${type}"`))) {
        child.stdout?.off("data", onData);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.on("exit", () => reject(new Error(`agent exited before ${type}`)));
  });
}

describe("a real agent killed with SIGKILL", () => {
  it("mid-stream: the session resumes with everything persisted before the kill", async () => {
    ws.server.enqueue({ kind: "stream", text: "A long answer that is never finished", chunkSize: 5, hangAfterChunks: 2 });
    const child = startAgent(["-p", "tell me about kiwis", "--output-format", "json"], { env: ws.env(), cwd: ws.cwd });
    const done = collect(child);
    await waitForJsonEvent(child, "assistant.message_delta");
    child.kill("SIGKILL");
    expect((await done).signal).toBe("SIGKILL");

    const id = onlySession();
    const log = readFileSync(path.join(ws.home, "session-state", id, "events.jsonl"), "utf8");
    expect(log).toContain('"type":"user.message"');
    expect(log).toContain('"type":"assistant.turn_start"');

    ws.server.enqueue(text("Kiwis are birds."));
    const resumed = await runAgent(["--resume", id, "-p", "please continue", "-s"], { env: ws.env(), cwd: ws.cwd });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe("Kiwis are birds.\n");
    const messages = ws.server.completionRequests.at(-1)?.body.messages ?? [];
    expect(messages.map((message) => message.role)).toEqual(["system", "user", "user"]);
    expect(String(messages[1]?.content)).toContain("tell me about kiwis");
  });

  it("mid-tool: the orphaned tool call gets a result and the next request is valid", async () => {
    const pidFile = path.join(ws.cwd, "sleeper.pid");
    ws.server.enqueue(toolCall("bash", { command: `echo $$ > ${pidFile}; exec sleep 30`, description: "Sleep" }));
    const child = startAgent(["-p", "wait a bit", "--output-format", "json", "--allow-all-tools"], { env: ws.env(), cwd: ws.cwd });
    const done = collect(child);
    await waitForJsonEvent(child, "tool.execution_start");
    child.kill("SIGKILL");
    await done;
    try {
      const id = onlySession();
      ws.server.enqueue(text("The wait was interrupted."));
      const resumed = await runAgent(["--continue", "-p", "what happened?", "--output-format", "json"], { env: ws.env(), cwd: ws.cwd });
      expect(resumed.code).toBe(0);
      const events = resumed.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { type: string; data: Record<string, unknown> });
      expect(events[0]?.type).toBe("session.resume");
      expect(events[0]?.data.repairedToolCalls).toBe(1);
      const messages = ws.server.completionRequests.at(-1)?.body.messages ?? [];
      expect(messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool", "user"]);
      expect(String(messages[3]?.content)).toMatch(/stopped before this bash call finished/);
      expect(readdirSync(path.join(ws.home, "session-state"))).toEqual([id]);
    } finally {
      // SIGKILL cannot be caught, so the agent could not stop its shell; do it here.
      if (existsSync(pidFile)) {
        const pid = Number(readFileSync(pidFile, "utf8"));
        try {
          process.kill(-pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }
  });
});

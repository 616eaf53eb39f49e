/** One writer per session across processes: real bin/agent processes against one AGENT_HOME. */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { collect, runAgent, startAgent } from "../support/run-agent.js";
import { hang, text } from "../support/scripted-server.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";

const ws = useE2eWorkspace({ prefix: "lock" });

const sessions = () => readdirSync(path.join(ws.home, "session-state")).filter((name) => !name.startsWith("."));
const logOf = (id: string) => readFileSync(path.join(ws.home, "session-state", id, "events.jsonl"), "utf8");

interface LoggedEvent {
  id: string;
  parentId: string | null;
  type: string;
}
const eventsOf = (id: string): LoggedEvent[] =>
  logOf(id)
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as LoggedEvent);

/** Every event's parentId is the event before it: one writer wrote the file. */
function expectOneChain(events: LoggedEvent[]): void {
  events.forEach((event, index) => expect(event.parentId).toBe(index === 0 ? null : events[index - 1]?.id));
}

describe("a session open in one agent process", () => {
  it("is refused to a second --resume (exit 5), and --continue starts a new session with a note", async () => {
    ws.server.enqueue(hang());
    const holder = startAgent(["-p", "first process prompt", "--output-format", "json"], { env: ws.env(), cwd: ws.cwd });
    const holderDone = collect(holder);
    await ws.server.waitForHang();
    const [id] = sessions() as [string];
    const before = logOf(id);

    const second = await runAgent(["--resume", id, "-p", "second process prompt"], { env: ws.env(), cwd: ws.cwd });
    expect(second.code).toBe(5);
    expect(second.stderr).toContain(`Session ${id} is open in another agent process (pid ${holder.pid})`);
    expect(second.stdout).toBe("");
    expect(logOf(id)).toBe(before);

    ws.server.enqueue(text("Answer in a fresh session."));
    const continued = await runAgent(["--continue", "-p", "third process prompt", "-s"], { env: ws.env(), cwd: ws.cwd });
    expect(continued.code).toBe(0);
    expect(continued.stdout).toBe("Answer in a fresh session.\n");
    expect(continued.stderr).toContain(`the latest session here (${id}) is open in another agent process (pid ${holder.pid}); started a new session instead.`);
    expect(sessions()).toHaveLength(2);
    const fresh = sessions().find((name) => name !== id) as string;
    expect(logOf(fresh)).toContain("third process prompt");
    expect(logOf(id)).toBe(before);
    // The fresh session's lock was released when its process ended.
    expect(existsSync(path.join(ws.home, "session-state", fresh, "session.lock"))).toBe(false);

    // The holder ends normally; its session is whole and resumable afterwards.
    holder.kill("SIGINT");
    expect((await holderDone).code).toBe(130);
    expect(existsSync(path.join(ws.home, "session-state", id, "session.lock"))).toBe(false);
    const held = eventsOf(id);
    expectOneChain(held);
    expect(logOf(id)).not.toContain("second process prompt");
    expect(logOf(id)).not.toContain("third process prompt");

    ws.server.enqueue(text("Resumed."));
    const resumed = await runAgent(["--resume", id, "-p", "and now?", "-s"], { env: ws.env(), cwd: ws.cwd });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe("Resumed.\n");
    expectOneChain(eventsOf(id));
  });

  it("a lock left by a process that is gone (crash, SIGKILL) is taken over", async () => {
    ws.server.enqueue(text("First."));
    const first = await runAgent(["-p", "start", "-s"], { env: ws.env(), cwd: ws.cwd });
    expect(first.code).toBe(0);
    const [id] = sessions() as [string];
    const dead = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" });
    const deadPid = Number(dead.stdout.trim());
    const lockFile = path.join(ws.home, "session-state", id, "session.lock");
    writeFileSync(lockFile, `${deadPid}\n`);

    ws.server.enqueue(text("Second."));
    const resumed = await runAgent(["--resume", id, "-p", "again", "-s"], { env: ws.env(), cwd: ws.cwd });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe("Second.\n");
    expect(resumed.stderr).toBe("");
    expect(existsSync(lockFile)).toBe(false);
    expectOneChain(eventsOf(id));
  });
});

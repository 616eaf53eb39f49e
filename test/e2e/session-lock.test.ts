/** One writer per session across processes: real bin/agent processes against one AGENT_HOME. */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AGENT_BIN, collect, runAgent, startAgent } from "../support/run-agent.js";
import { hang, text } from "../support/scripted-server.js";
import { useE2eWorkspace } from "../support/e2e-workspace.js";
import { spawnUnreaped, waitForZombie } from "../support/unreaped-child.js";
import { readProcStat } from "../../src/util/process-identity.js";

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

  it.runIf(process.platform === "linux")("kill -9 of the agent's process group, then --resume at once: the zombie it left holds nothing", async () => {
    ws.server.enqueue(hang());
    // The agent's parent never reaps it, so after the kill it stays a zombie for as long as this test needs.
    const agent = await spawnUnreaped([process.execPath, AGENT_BIN, "-p", "first prompt"], { env: ws.env(), cwd: ws.cwd });
    try {
      await ws.server.waitForHang();
      const [id] = sessions() as [string];
      const lockFile = path.join(ws.home, "session-state", id, "session.lock");
      expect(readFileSync(lockFile, "utf8").split("\n")[0]).toBe(`${agent.pid}`);
      process.kill(-agent.pid, "SIGKILL");
      await waitForZombie(agent.pid);

      ws.server.enqueue(text("Resumed after the kill."));
      const resumed = await runAgent(["--resume", id, "-p", "go on", "-s"], { env: ws.env(), cwd: ws.cwd });
      expect(resumed.stderr).toBe("");
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toBe("Resumed after the kill.\n");
      // The killed agent was a zombie the whole time: the lock was judged stale, not freed by a reaping.
      expect(readProcStat(agent.pid)?.state).toBe("Z");
      expect(existsSync(lockFile)).toBe(false);
      expectOneChain(eventsOf(id));
    } finally {
      agent.stop();
    }
  });

  it("a lock naming the resuming process's own pid (a container reusing pids) is taken over", async () => {
    ws.server.enqueue(text("First."));
    expect((await runAgent(["-p", "start", "-s"], { env: ws.env(), cwd: ws.cwd })).code).toBe(0);
    const [id] = sessions() as [string];
    const lockFile = path.join(ws.home, "session-state", id, "session.lock");
    // The lock file is written by the resuming process itself, just before it opens the session: it names
    // that process's pid without that process holding it, as a crashed run with the same pid would leave.
    const preload = path.join(ws.cwd, "plant-lock.cjs");
    writeFileSync(preload, `require("node:fs").writeFileSync(${JSON.stringify(lockFile)}, process.pid + "\\ntoken left-by-a-crashed-run\\n");\n`);
    ws.server.enqueue(text("Second."));
    const resumed = await runAgent(["--resume", id, "-p", "again", "-s"], { env: ws.env({ NODE_OPTIONS: `--require ${preload}` }), cwd: ws.cwd });
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe("Second.\n");
    expect(existsSync(lockFile)).toBe(false);
  });

  it.runIf(process.platform === "linux")("a lock naming a live unrelated process that started at another time is taken over", async () => {
    ws.server.enqueue(text("First."));
    expect((await runAgent(["-p", "start", "-s"], { env: ws.env(), cwd: ws.cwd })).code).toBe(0);
    const [id] = sessions() as [string];
    const lockFile = path.join(ws.home, "session-state", id, "session.lock");
    const started = Number(readProcStat(process.pid)?.startTime);
    writeFileSync(lockFile, `${process.pid}\nstarted ${started + 100}\ntoken an-earlier-process-with-this-pid\n`);
    ws.server.enqueue(text("Second."));
    const resumed = await runAgent(["--resume", id, "-p", "again", "-s"], { env: ws.env(), cwd: ws.cwd });
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    expect(existsSync(lockFile)).toBe(false);
  });
});

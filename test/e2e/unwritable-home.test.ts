/**
 * A home the agent cannot write (a full disk, a file size limit, a read-only folder): the real bin/agent
 * says what failed and where, exits non-zero, never advises `npm install`, and leaves a log that ends on a
 * whole event and resumes.
 */
import { spawn } from "node:child_process";
import { appendFileSync, chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { useE2eWorkspace } from "../support/e2e-workspace.js";
import { tempDir } from "../support/engine-harness.js";
import { AGENT_BIN, collect, runAgent } from "../support/run-agent.js";
import { text } from "../support/scripted-server.js";
import { handOver, unprivilegedUser } from "../support/unprivileged.js";

const ws = useE2eWorkspace({ prefix: "unwritable" });

const sessionsDir = () => path.join(ws.home, "session-state");
const onlySession = () => readdirSync(sessionsDir())[0] as string;
const logFile = (id: string) => path.join(sessionsDir(), id, "events.jsonl");

/** Every line of the log is a whole event, the file ends on a newline, and each event points at the one before. */
function expectWholeLog(id: string): { type: string }[] {
  const raw = readFileSync(logFile(id), "utf8");
  expect(raw.endsWith("\n")).toBe(true);
  const events = raw
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line) as { id: string; parentId: string | null; type: string });
  events.forEach((event, index) => expect(event.parentId).toBe(index === 0 ? null : events[index - 1]?.id));
  return events;
}

function expectNoBuildAdvice(stderr: string): void {
  expect(stderr).not.toContain("npm install");
  expect(stderr).not.toContain("could not start");
}

describe("a session log that cannot be written", () => {
  it.runIf(process.platform !== "win32")("mid-run (a file size limit cuts the answer's event): a clear error, exit 1, a whole log that resumes", async () => {
    ws.server.enqueue(text("A short first answer."));
    expect((await runAgent(["-p", "first", "-s"], { env: ws.env(), cwd: ws.cwd })).code).toBe(0);
    const id = onlySession();
    // Room for the resume's own first events, not for a 200 kB answer (in 512-byte blocks; bash counts 1024).
    const blocks = Math.ceil((2 * statSync(logFile(id)).size + 8192) / 512);
    ws.server.enqueue(text("y".repeat(200_000), { chunkSize: 20_000 }));
    const limited = spawn("sh", ["-c", `ulimit -f ${blocks} && exec "$0" "$@"`, process.execPath, AGENT_BIN, "--resume", id, "-p", "a long one"], {
      cwd: ws.cwd,
      env: ws.env(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    const run = await collect(limited);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Could not write the session log ${logFile(id)}: the file is too large (a file size limit) (EFBIG).`);
    expect(run.stderr).toContain(`continue with: agent --resume ${id}`);
    expectNoBuildAdvice(run.stderr);
    const types = expectWholeLog(id).map((event) => event.type);
    expect(types.at(-1)).toBe("assistant.turn_start");
    // Only the first run's end: the failed run wrote nothing after its last whole event.
    expect(types.filter((type) => type === "session.shutdown")).toHaveLength(1);
    expect(readFileSync(logFile(id), "utf8")).not.toContain("yyyy");

    // A crash could still leave a torn line: the next open cuts it before appending.
    appendFileSync(logFile(id), '{"id":"torn","type":"user.mess');
    ws.server.enqueue(text("Room again."));
    const resumed = await runAgent(["--resume", id, "-p", "go on", "-s"], { env: ws.env(), cwd: ws.cwd });
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe("Room again.\n");
    expect(expectWholeLog(id).at(-1)?.type).toBe("session.shutdown");
    expect(readFileSync(logFile(id), "utf8")).not.toContain('"torn"');
  });

  it("a session folder that cannot be created (read-only session-state, or a file in its place): the path and the reason", async () => {
    mkdirSync(sessionsDir());
    handOver(ws.home);
    handOver(ws.cwd);
    chmodSync(sessionsDir(), 0o555);
    const user = unprivilegedUser();
    const readOnly = await runAgent(["-p", "hi"], { env: ws.env(), cwd: ws.cwd, ...(user ? { user } : {}) });
    expect(readOnly.code).toBe(1);
    expect(readOnly.stderr).toMatch(new RegExp(`Could not create the session folder ${sessionsDir()}/[0-9a-f-]{36}: permission denied \\(EACCES\\)`));
    expectNoBuildAdvice(readOnly.stderr);
    expect(ws.server.completionRequests).toHaveLength(0);

    const home = tempDir("unwritable-file-home-");
    writeFileSync(path.join(home, "session-state"), "not a folder");
    const blocked = await runAgent(["-p", "hi"], { env: { ...ws.env(), HOME: home, AGENT_HOME: home }, cwd: ws.cwd });
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toMatch(/Could not create the session folder .*session-state\/[0-9a-f-]{36}: a part of the path is not a folder \(ENOTDIR\)/);
    expectNoBuildAdvice(blocked.stderr);
  });

  it("a session folder that became read-only: --resume says which file it cannot write", async () => {
    ws.server.enqueue(text("First."));
    expect((await runAgent(["-p", "first", "-s"], { env: ws.env(), cwd: ws.cwd })).code).toBe(0);
    const id = onlySession();
    handOver(ws.home);
    handOver(ws.cwd);
    chmodSync(path.join(sessionsDir(), id), 0o555);
    const user = unprivilegedUser();
    const before = readFileSync(logFile(id), "utf8");
    const resumed = await runAgent(["--resume", id, "-p", "again"], { env: ws.env(), cwd: ws.cwd, ...(user ? { user } : {}) });
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toContain(`Could not lock the session (${path.join(sessionsDir(), id, "session.lock")}): permission denied (EACCES)`);
    expectNoBuildAdvice(resumed.stderr);
    expect(readFileSync(logFile(id), "utf8")).toBe(before);
  });

  it("only a missing build gets the `npm install` advice", async () => {
    const copy = tempDir("unbuilt-");
    mkdirSync(path.join(copy, "bin"));
    copyFileSync(AGENT_BIN, path.join(copy, "bin", "agent.js"));
    copyFileSync(path.join(path.dirname(AGENT_BIN), "package.json"), path.join(copy, "bin", "package.json"));
    writeFileSync(path.join(copy, "package.json"), '{"type":"module"}');
    const run = await collect(spawn(process.execPath, [path.join(copy, "bin", "agent.js"), "--version"], { stdio: ["ignore", "pipe", "pipe"] }));
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`agent: the program is not built (${path.join(copy, "dist", "cli.js")} is missing). Run \`npm install\` to build it.\n`);
  });
});

import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/engine-harness.js";
import { killToZombie, spawnUnreaped } from "../support/unreaped-child.js";
import { acquireSessionLock, claimPath, LOCK_FILE, SessionLockedError, sessionLockHolder } from "../../src/session/session-lock.js";
import { currentBootId, readProcStat } from "../../src/util/process-identity.js";

const deadPid = (): number => Number(spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" }).stdout.trim());
const onLinux = process.platform === "linux" && existsSync("/proc/self/stat");
const lockOf = (dir: string) => path.join(dir, LOCK_FILE);

/** A lock naming `pid` with these extra lines (the format the agent writes). */
function writeLock(dir: string, pid: number, fields: Record<string, string | undefined> = {}): void {
  writeFileSync(
    lockOf(dir),
    [
      `${pid}`,
      ...Object.entries(fields)
        .filter(([, value]) => value !== undefined)
        .map(([key, value]) => `${key} ${value}`),
      "",
    ].join("\n"),
  );
}

function expectRefused(dir: string, pid: number): void {
  const before = readFileSync(lockOf(dir), "utf8");
  try {
    acquireSessionLock(dir, "s");
    expect.unreachable();
  } catch (error) {
    expect(error).toBeInstanceOf(SessionLockedError);
    expect((error as SessionLockedError).pid).toBe(pid);
    expect((error as Error).message).toBe(`Session s is open in another agent process (pid ${pid}). Close it there first, or start a new session.`);
  }
  expect(readFileSync(lockOf(dir), "utf8")).toBe(before);
  expect(sessionLockHolder(dir)).toBe(pid);
}

/** Takes the lock over: this process holds it afterwards, and nothing but the lock is left in the folder. */
function expectTakenOver(dir: string): void {
  expect(sessionLockHolder(dir)).toBeUndefined();
  const lock = acquireSessionLock(dir, "s");
  expect(sessionLockHolder(dir)).toBe(process.pid);
  expect(readdirSync(dir)).toEqual([LOCK_FILE]);
  lock.release();
  expect(readdirSync(dir)).toEqual([]);
}

describe("session lock", () => {
  it("names its holder (pid first, then start time, boot and a token), refuses a second writer and is removed on release", () => {
    const dir = tempDir("lock-");
    const lock = acquireSessionLock(dir, "s1");
    const [pid, ...fields] = readFileSync(lockOf(dir), "utf8").trim().split("\n");
    expect(pid).toBe(`${process.pid}`);
    expect(fields.at(-1)).toMatch(/^token [0-9a-f]{24}$/);
    if (onLinux) expect(fields.slice(0, 2)).toEqual([`started ${readProcStat(process.pid)?.startTime}`, `boot ${currentBootId()}`]);
    expect(sessionLockHolder(dir)).toBe(process.pid);
    expect(() => acquireSessionLock(dir, "s1")).toThrow("Session s1 is already open in this agent.");
    lock.release();
    expect(existsSync(lockOf(dir))).toBe(false);
    expect(sessionLockHolder(dir)).toBeUndefined();
    acquireSessionLock(dir, "s1").release();
  });

  it("refuses a lock held by another live process, naming its pid (an older pid-only lock, and one that names it fully)", () => {
    const dir = tempDir("lock-");
    writeLock(dir, process.ppid);
    expectRefused(dir, process.ppid);
    if (!onLinux) return;
    writeLock(dir, process.ppid, { started: readProcStat(process.ppid)?.startTime ?? "", boot: currentBootId() ?? "", token: "abc" });
    expectRefused(dir, process.ppid);
  });

  it("takes over a stale lock: a dead pid, an unreadable file, an empty one", () => {
    for (const content of [`${deadPid()}\n`, "garbage", ""]) {
      const dir = tempDir("lock-");
      writeFileSync(lockOf(dir), content);
      expectTakenOver(dir);
    }
  });

  it("takes over a lock naming this very process when this process does not hold it (a reused pid in a container)", () => {
    for (const fields of [{}, { token: "left-by-an-earlier-run" }, { started: "1", token: "x" }]) {
      const dir = tempDir("lock-");
      writeLock(dir, process.pid, fields);
      expectTakenOver(dir);
    }
  });

  it.runIf(onLinux)("takes over a lock naming a live unrelated pid that started at another time, or in another boot", () => {
    const started = readProcStat(process.ppid)?.startTime as string;
    const variants = [
      { started: String(Number(started) + 1) },
      { started: String(Number(started) - 1), boot: currentBootId() ?? "" },
      { started, boot: "00000000-0000-0000-0000-000000000000" },
      { boot: "another-boot" },
    ];
    for (const fields of variants) {
      const dir = tempDir("lock-");
      writeLock(dir, process.ppid, { ...fields, token: "t" });
      expectTakenOver(dir);
    }
  });

  it.runIf(onLinux)("takes over a lock whose holder is a zombie nobody has reaped yet", async () => {
    const zombie = await spawnUnreaped(["sleep", "100000"]);
    try {
      await killToZombie(zombie);
      // kill(pid, 0) still succeeds on a zombie: exactly what used to keep such a lock alive.
      expect(() => process.kill(zombie.pid, 0)).not.toThrow();
      for (const fields of [{}, { started: readProcStat(zombie.pid)?.startTime ?? "", boot: currentBootId() ?? "", token: "z" }]) {
        const dir = tempDir("lock-");
        writeLock(dir, zombie.pid, fields);
        expectTakenOver(dir);
      }
      expect(readProcStat(zombie.pid)?.state).toBe("Z");
    } finally {
      zombie.stop();
    }
  });

  it("release never removes a lock another process took over", () => {
    const dir = tempDir("lock-");
    const lock = acquireSessionLock(dir, "s4");
    writeLock(dir, process.ppid);
    lock.release();
    expect(sessionLockHolder(dir)).toBe(process.ppid);
  });

  it("leaves a stale lock to a live process that is taking it over right now (its claim), naming that process", () => {
    const dir = tempDir("lock-");
    writeLock(dir, deadPid());
    const stale = readFileSync(lockOf(dir), "utf8");
    const claim = claimPath(lockOf(dir), stale);
    writeFileSync(claim, `${process.ppid}\n`);
    try {
      acquireSessionLock(dir, "s");
      expect.unreachable();
    } catch (error) {
      expect((error as SessionLockedError).pid).toBe(process.ppid);
    }
    expect(readFileSync(lockOf(dir), "utf8")).toBe(stale);
    // A claim whose claimant died mid-takeover is stale too: taken over, and cleaned up with the lock.
    writeFileSync(claim, `${deadPid()}\n`);
    expectTakenOver(dir);
  });

  it("lets exactly one of several processes racing for a stale lock take it", async () => {
    const dir = tempDir("lock-");
    writeLock(dir, deadPid());
    const module = fileURLToPath(new URL("../../src/session/session-lock.ts", import.meta.url));
    const script = `
      const { acquireSessionLock } = await import(${JSON.stringify(module)});
      process.stdout.write("ready\\n");
      process.stdin.once("data", () => {
        try { acquireSessionLock(${JSON.stringify(dir)}, "race"); process.stdout.write("held\\n"); }
        catch (error) { process.stdout.write(error.name + "\\n"); }
        process.stdin.once("end", () => process.exit(0));
      });`;
    const racers = Array.from({ length: 6 }, () =>
      spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["pipe", "pipe", "inherit"] }),
    );
    const lines = racers.map((child) => {
      child.stdout.setEncoding("utf8");
      let text = "";
      const next = async (): Promise<string> => {
        while (!text.includes("\n")) text += ((await once(child.stdout, "data")) as [string])[0];
        const [line = "", ...rest] = text.split("\n");
        text = rest.join("\n");
        return line;
      };
      return next;
    });
    try {
      expect(await Promise.all(lines.map((next) => next()))).toEqual(Array(6).fill("ready"));
      for (const child of racers) child.stdin.write("go\n");
      const outcomes = await Promise.all(lines.map((next) => next()));
      expect(outcomes.filter((outcome) => outcome === "held")).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome !== "held")).toEqual(Array(5).fill("SessionLockedError"));
      const winner = racers[outcomes.indexOf("held")]?.pid;
      expect(sessionLockHolder(dir)).toBe(winner);
      expect(readdirSync(dir)).toEqual([LOCK_FILE]);
    } finally {
      for (const child of racers) child.stdin.end();
      await Promise.all(racers.map((child) => (child.exitCode === null ? once(child, "exit") : undefined)));
    }
  }, 60_000);
});

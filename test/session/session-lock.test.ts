import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/engine-harness.js";
import { acquireSessionLock, LOCK_FILE, SessionLockedError, sessionLockHolder } from "../../src/session/session-lock.js";

const deadPid = (): number => Number(spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" }).stdout.trim());

describe("session lock", () => {
  it("holds the owner's pid, refuses a second writer and is removed on release", () => {
    const dir = tempDir("lock-");
    const lock = acquireSessionLock(dir, "s1");
    expect(readFileSync(path.join(dir, LOCK_FILE), "utf8")).toBe(`${process.pid}\n`);
    expect(sessionLockHolder(dir)).toBe(process.pid);
    expect(() => acquireSessionLock(dir, "s1")).toThrow(SessionLockedError);
    lock.release();
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    expect(sessionLockHolder(dir)).toBeUndefined();
    acquireSessionLock(dir, "s1").release();
  });

  it("refuses a lock held by another live process, naming its pid", () => {
    const dir = tempDir("lock-");
    writeFileSync(path.join(dir, LOCK_FILE), `${process.ppid}\n`);
    try {
      acquireSessionLock(dir, "s2");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SessionLockedError);
      expect((error as SessionLockedError).pid).toBe(process.ppid);
    }
    expect(readFileSync(path.join(dir, LOCK_FILE), "utf8")).toBe(`${process.ppid}\n`);
  });

  it("takes over a stale lock (dead pid, or an unreadable file)", () => {
    for (const content of [`${deadPid()}\n`, "garbage"]) {
      const dir = tempDir("lock-");
      writeFileSync(path.join(dir, LOCK_FILE), content);
      expect(sessionLockHolder(dir)).toBeUndefined();
      const lock = acquireSessionLock(dir, "s3");
      expect(sessionLockHolder(dir)).toBe(process.pid);
      lock.release();
    }
  });

  it("release never removes a lock another process took over", () => {
    const dir = tempDir("lock-");
    const lock = acquireSessionLock(dir, "s4");
    writeFileSync(path.join(dir, LOCK_FILE), `${process.ppid}\n`);
    lock.release();
    expect(sessionLockHolder(dir)).toBe(process.ppid);
  });
});

/**
 * Who a process is, beyond its pid. Pids are reused (a container gives every run the same small pid) and a
 * killed process lingers as a zombie until its parent reaps it, so `kill(pid, 0)` alone cannot tell whether
 * the process a record names still runs. Where the system says (/proc on Linux), a process is also named by
 * its start time (field 22 of /proc/<pid>/stat, in clock ticks since boot) and the boot it belongs to;
 * elsewhere only the pid is known and the check falls back to signal 0.
 */
import { readFileSync } from "node:fs";

export interface ProcStat {
  /** R, S, D, T, Z (zombie), X (dead)… */
  state: string;
  pgrp: number;
  /** Clock ticks after boot when the process started (field 22), as written. */
  startTime: string;
}

/** Parses /proc/<pid>/stat; the command name in parentheses may itself contain spaces and parentheses. */
export function readProcStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // Fields after the name start at field 3 (state); field 22 (starttime) is the 20th of them.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const pgrp = Number(fields[2]);
  const startTime = fields[19];
  if (state === undefined || !Number.isFinite(pgrp) || startTime === undefined || !/^\d+$/.test(startTime)) return undefined;
  return { state, pgrp, startTime };
}

let cachedBootId: string | undefined | null = null;

/** This boot's id (Linux), or undefined where the system has none. */
export function currentBootId(): string | undefined {
  if (cachedBootId === null) {
    try {
      cachedBootId = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim() || undefined;
    } catch {
      cachedBootId = undefined;
    }
  }
  return cachedBootId;
}

export interface ProcessIdentity {
  pid: number;
  startTime?: string;
  bootId?: string;
}

/** This process, as another process can later check it. */
export function currentProcessIdentity(): ProcessIdentity {
  const startTime = readProcStat(process.pid)?.startTime;
  const bootId = currentBootId();
  return { pid: process.pid, ...(startTime ? { startTime } : {}), ...(bootId ? { bootId } : {}) };
}

/**
 * Whether the process `identity` names still runs: false when it is gone, a zombie, from another boot, or
 * when its pid now belongs to a process that started at another time. An identity without a start time (an
 * older record, a system without /proc) is judged by its pid alone.
 */
export function isProcessRunning(identity: ProcessIdentity): boolean {
  const boot = currentBootId();
  if (identity.bootId !== undefined && boot !== undefined && identity.bootId !== boot) return false;
  const stat = readProcStat(identity.pid);
  if (stat) {
    if (stat.state === "Z" || stat.state === "X") return false;
    return identity.startTime === undefined || identity.startTime === stat.startTime;
  }
  // No readable /proc entry (another system, or /proc hiding other users' processes): ask the kernel.
  try {
    process.kill(identity.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

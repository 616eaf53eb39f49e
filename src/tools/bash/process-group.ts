/**
 * Spawning a shell command as the leader of its own process group, and killing that whole group.
 *
 * Every command runs as `bash -c <command>` (or `sh -c` where bash is missing) with `detached: true`, which on
 * POSIX makes the child call setsid(): it leads a new session and process group whose id is its pid. Killing
 * `-pid` then reaches every process the command started, unless one of them moved itself to another group.
 *
 * The process is started with execa (loaded on the first command, so start-up never pays for it), used as a
 * plain spawner: the bash tool reads the streams itself (`buffer: false`), judges the exit itself
 * (`reject: false`) and owns the group's lifetime (`cleanup: false`; a detached group outlives the agent on
 * purpose, and dispose() kills the others with killGroup below).
 */
import type { ChildProcess } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { delimiter, join } from "node:path";
import { readProcStat } from "../../util/process-identity.js";

/** Variables every command sees on top of the agent's own environment. */
export const SHELL_ENV_OVERRIDES: Readonly<Record<string, string>> = {
  COPILOT_CLI: "1",
  AGENT_CLI: "1",
  GIT_TERMINAL_PROMPT: "0",
  PAGER: "cat",
  GIT_PAGER: "cat",
};

let cachedShell: string | undefined;

/** The shell binary: bash when it can be found, else sh. */
export function resolveShell(): string {
  if (cachedShell !== undefined) return cachedShell;
  const dirs = (process.env.PATH ?? "").split(delimiter).filter(Boolean);
  const candidates = ["/bin/bash", "/usr/bin/bash", ...dirs.map((dir) => join(dir, "bash"))];
  cachedShell = candidates.find((path) => existsSync(path)) ?? "/bin/sh";
  return cachedShell;
}

export function shellEnv(): NodeJS.ProcessEnv {
  return { ...process.env, ...SHELL_ENV_OVERRIDES };
}

export interface SpawnGroupOptions {
  cwd: string;
  /** "pipe" for captured output, or an open file descriptor that receives both stdout and stderr. */
  output: "pipe" | number;
}

let execaModule: Promise<typeof import("execa")> | undefined;

export interface GroupProcess {
  child: ChildProcess;
  /** Why it could not start, when it has no pid. */
  startError: Promise<Error>;
}

/** Starts `command` in its own session and process group, stdin from /dev/null. */
export async function spawnInGroup(command: string, options: SpawnGroupOptions): Promise<GroupProcess> {
  const { execa } = await (execaModule ??= import("execa"));
  const common = {
    cwd: options.cwd,
    env: shellEnv(),
    extendEnv: false,
    detached: true,
    windowsHide: true,
    buffer: false,
    reject: false,
    cleanup: false,
    stripFinalNewline: false,
  } as const;
  const args = ["-c", command];
  const output = options.output;
  // Two calls because execa's option types take a file descriptor only as a literal (3, 4…), not as `number`.
  const subprocess =
    output === "pipe"
      ? execa(resolveShell(), args, { ...common, stdio: ["ignore", "pipe", "pipe"] })
      : execa(resolveShell(), args, { ...common, stdio: ["ignore", output as 3, output as 3] });
  // Listened to at once: a spawn failure is emitted on the next tick, before our caller could listen.
  const startError = new Promise<Error>((resolve) => subprocess.once("error", resolve));
  // The outcome is read from the process's own events; the result promise only needs a handler.
  subprocess.catch(() => undefined);
  // Wrapped: the subprocess is also a promise, which an async function would otherwise wait for.
  return { child: subprocess, startError };
}

/** Sends `signal` to every process of group `pgid`. False when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether any live (non-zombie) process is still in group `pgid`. On Linux this reads /proc so that zombies
 * nobody has reaped yet (an init that does not reap, a parent that has not waited) count as gone; elsewhere it
 * falls back to signal 0.
 */
export function isGroupAlive(pgid: number): boolean {
  if (process.platform === "linux" && existsSync("/proc/self/stat")) {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      const stat = readProcStat(Number(entry));
      if (stat && stat.pgrp === pgid && stat.state !== "Z" && stat.state !== "X") return true;
    }
    return false;
  }
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

const POLL_MS = 50;

/**
 * SIGTERM to the whole group, then SIGKILL if anything in it is still alive after `graceMs`.
 * Resolves once the group is gone (or right after SIGKILL, which cannot be refused).
 */
export async function killGroup(pgid: number, graceMs = 2000): Promise<void> {
  if (!signalGroup(pgid, "SIGTERM")) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!isGroupAlive(pgid)) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  signalGroup(pgid, "SIGKILL");
}

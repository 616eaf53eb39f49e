/**
 * A process whose parent never reaps it, so once it dies it stays a zombie until the test ends: the parent
 * is a shell that starts it in the background (in a session and process group of its own, through setsid)
 * and then execs into `sleep`, which never waits for children. Linux only (it reads /proc).
 *
 * The shell may reap a child that dies before the `exec` (CI saw `true` reaped that way), so `spawnUnreaped`
 * returns only once the parent is `sleep`: a child that must become a zombie has to outlive that moment, and is
 * then killed by the test (see `killToZombie`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { once } from "node:events";
import { readProcStat } from "../../src/util/process-identity.js";
import { waitUntil } from "./tmux.js";

export interface UnreapedChild {
  /** The child's pid (also its process group id). */
  pid: number;
  /** The non-reaping parent; stopping it lets init reap the zombie. */
  parent: ChildProcess;
  stop(): void;
}

export async function spawnUnreaped(argv: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<UnreapedChild> {
  const parent = spawn("sh", ["-c", 'setsid "$@" </dev/null >/dev/null 2>&1 & echo $!; exec sleep 100000', "sh", ...argv], {
    env: options.env ?? process.env,
    cwd: options.cwd,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  parent.stdout?.setEncoding("utf8");
  while (!output.includes("\n")) {
    const [chunk] = (await Promise.race([once(parent.stdout as NodeJS.ReadableStream, "data"), once(parent, "exit")])) as [unknown];
    if (typeof chunk !== "string") throw new Error("the non-reaping parent ended before naming its child");
    output += chunk;
  }
  const pid = Number(output.trim());
  const parentPid = parent.pid as number;
  await waitUntil(() => commandNameOf(parentPid) === "sleep", 10_000, "the non-reaping parent to exec into sleep");
  return { pid, parent, stop: () => parent.kill("SIGKILL") };
}

function commandNameOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return undefined;
  }
}

/** Kills a long-lived unreaped child and resolves once it is a zombie. */
export async function killToZombie(child: UnreapedChild): Promise<void> {
  process.kill(child.pid, "SIGKILL");
  await waitForZombie(child.pid);
}

/** Resolves once `pid` is a zombie (it died and nobody reaped it). */
export function waitForZombie(pid: number): Promise<void> {
  return waitUntil(
    () => {
      const stat = readProcStat(pid);
      if (stat === undefined) throw new Error(`process ${pid} is gone: it was reaped, so it can no longer stand for a zombie`);
      return stat.state === "Z";
    },
    10_000,
    `process ${pid} to become a zombie`,
  );
}

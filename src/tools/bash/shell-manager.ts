/**
 * The shells of one session: every bash call is a fresh process registered here under a shell id, so that a
 * command that outlives its call (async, or sync past initial_wait) can be read, listed and stopped later.
 */
import { closeSync, existsSync, openSync, statSync } from "node:fs";
import { join } from "node:path";
import { makePrivateDir, openPrivateFile } from "../../util/private-files.js";
import { ToolError } from "../define-tool.js";
import { OutputBuffer, type OutputLimits } from "./output-buffer.js";
import { isGroupAlive, killGroup, spawnInGroup, type GroupProcess } from "./process-group.js";
import { Shell, type ShellInfo, type StartShellOptions } from "./shell.js";

export type { ShellInfo, ShellMode, ShellStatus, StartShellOptions } from "./shell.js";
export { Shell, describeStatus } from "./shell.js";

export interface ShellManagerOptions {
  /** Time between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  /** After the shell exits, how long output may stay silent before the shell counts as finished. */
  exitIdleMs?: number;
  outputLimits?: Partial<OutputLimits>;
}

function safeFileName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 120) || "shell";
}

export type WaitResult = "exited" | "timeout" | "aborted";

export class ShellManager {
  private readonly shells = new Map<string, Shell>();
  /** Shells already exited and reported, with a one-line summary, for a helpful error on a late read. */
  private readonly retired = new Map<string, string>();
  private readonly exitListeners = new Set<(info: ShellInfo) => void>();
  /** Replaced shells whose children may still hold their pipes; dispose() kills them too. */
  private lingering: Shell[] = [];
  private nextId = 1;
  private disposed = false;

  constructor(private readonly options: ShellManagerOptions = {}) {}

  async start(options: StartShellOptions): Promise<Shell> {
    if (this.disposed) throw new ToolError("The session is shutting down; no new commands can start.");
    if (!existsSync(options.cwd) || !statSync(options.cwd).isDirectory()) {
      throw new ToolError(`The working directory ${options.cwd} does not exist.`, "cwd_not_found");
    }
    const id = options.shellId ?? this.generateId();
    const existing = this.shells.get(id);
    if (existing?.running) {
      throw new ToolError(`Shell ${id} is still running. Stop it with stop_bash or choose another shellId.`);
    }
    if (existing) this.keepIfLingering(existing);
    this.shells.delete(id);
    this.retired.delete(id);
    const dir = join(options.sessionDir, "shell-output");
    const fullOutputPath = join(dir, `${safeFileName(options.toolCallId || id)}.log`);
    const buffer = new OutputBuffer({ fullOutputPath, writeFile: !options.detach, limits: this.options.outputLimits });
    let writeFd: number | undefined;
    let readFd: number | undefined;
    if (options.detach) {
      makePrivateDir(dir);
      writeFd = openPrivateFile(fullOutputPath, "w");
      readFd = openSync(fullOutputPath, "r");
    }
    let started: GroupProcess;
    try {
      started = await spawnInGroup(options.command, { cwd: options.cwd, output: writeFd ?? "pipe" });
    } finally {
      if (writeFd !== undefined) closeSync(writeFd);
    }
    const { child } = started;
    if (child.pid === undefined) {
      if (readFd !== undefined) closeSync(readFd);
      const error = await started.startError;
      throw new ToolError(`Could not start the command: ${error.message}`, "spawn_failed");
    }
    child.on("error", () => undefined);
    if (options.detach) child.unref();
    const shell = new Shell(id, options, buffer, child, this.options.exitIdleMs ?? 200, readFd);
    this.shells.set(id, shell);
    void shell.finished.then(() => {
      if (shell.backgrounded && !shell.exitReported) for (const listener of this.exitListeners) listener(shell.info());
    });
    return shell;
  }

  private generateId(): string {
    while (this.shells.has(String(this.nextId))) this.nextId++;
    return String(this.nextId++);
  }

  get(shellId: string): Shell | undefined {
    return this.shells.get(shellId);
  }

  /** The shell, or a ToolError naming the shells that exist. */
  require(shellId: string): Shell {
    const shell = this.shells.get(shellId);
    if (shell) return shell;
    const retired = this.retired.get(shellId);
    if (retired) throw new ToolError(`Shell ${shellId} ${retired}; its output has already been returned.`, "shell_gone");
    const known = [...this.shells.keys()];
    const list = known.length > 0 ? `Known shells: ${known.join(", ")}.` : "There are no shells.";
    throw new ToolError(`Unknown shellId "${shellId}". ${list}`, "unknown_shell");
  }

  /** Waits until the shell exits, `ms` pass, or `signal` aborts. */
  async waitForExit(shell: Shell, ms: number, signal?: AbortSignal): Promise<WaitResult> {
    if (!shell.running) return "exited";
    if (signal?.aborted) return "aborted";
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const result = await Promise.race<WaitResult>([
      shell.finished.then(() => "exited" as const),
      new Promise<WaitResult>((resolve) => (timer = setTimeout(() => resolve("timeout"), ms))),
      new Promise<WaitResult>((resolve) => {
        onAbort = () => resolve("aborted");
        signal?.addEventListener("abort", onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
    return result;
  }

  /** Kills the shell's whole process group and waits until it has finished. */
  async stop(shell: Shell): Promise<void> {
    if (!shell.mayHaveProcesses) return;
    if (shell.running) shell.interrupted = true;
    const grace = this.options.killGraceMs ?? 2000;
    await killGroup(shell.pid, grace);
    await Promise.race([shell.finished, new Promise((resolve) => setTimeout(resolve, grace + 3000).unref())]);
  }

  /** Forgets an exited shell whose final output and status the model has seen. */
  retire(shell: Shell, summary: string): void {
    shell.exitReported = true;
    if (shell.running || this.shells.get(shell.id) !== shell) return;
    // Children it left behind (`server &`) may still hold its pipes; dispose() must still kill them.
    this.keepIfLingering(shell);
    this.shells.delete(shell.id);
    this.retired.set(shell.id, summary);
  }

  private keepIfLingering(shell: Shell): void {
    this.lingering = this.lingering.filter((other) => other.mayHaveProcesses);
    if (shell.mayHaveProcesses && !shell.detached) this.lingering.push(shell);
  }

  list(): ShellInfo[] {
    return [...this.shells.values()].map((shell) => shell.info());
  }

  /**
   * Still-running shells whose call has returned (mode "async", or sync past initial_wait), for /tasks and
   * session.idle's backgroundTasks. A foreground command still inside its call (a sync subagent's) is not one.
   */
  backgroundShells(): { shellId: string; description: string }[] {
    return [...this.shells.values()]
      .filter((shell) => shell.running && shell.backgrounded)
      .map((shell) => ({ shellId: shell.id, description: shell.options.description }));
  }

  /** Called when a shell whose call already returned exits before anyone read its status. */
  onBackgroundExit(listener: (info: ShellInfo) => void): () => void {
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  /**
   * Kills every non-detached shell's process group (SIGTERM is sent synchronously, before the first await, so
   * it goes out even if the caller does not wait) and lets detached ones go on without us.
   */
  async dispose(): Promise<void> {
    this.disposed = true;
    const stopping: Promise<void>[] = [];
    for (const shell of [...this.shells.values(), ...this.lingering]) {
      if (shell.detached) shell.release();
      else if (shell.mayHaveProcesses && (shell.running || isGroupAlive(shell.pid))) stopping.push(this.stop(shell));
    }
    await Promise.all(stopping);
    this.shells.clear();
  }
}

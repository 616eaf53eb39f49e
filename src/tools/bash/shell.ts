/**
 * One command started by the bash tool: its process group, its captured output (pipes, or the log file a
 * detached process writes itself) and its exit status once the process has exited and its output has drained.
 */
import type { ChildProcess } from "node:child_process";
import { closeSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import type { OutputBuffer, RenderedOutput } from "./output-buffer.js";

export type ShellMode = "sync" | "async";
export type ShellStatus = { state: "running" } | { state: "exited"; exitCode: number | null; signal: NodeJS.Signals | null };

export interface StartShellOptions {
  command: string;
  description: string;
  cwd: string;
  sessionDir: string;
  toolCallId: string;
  shellId?: string;
  mode: ShellMode;
  /** Own session, output straight to the log file, survives the agent and dispose(). */
  detach?: boolean;
}

export interface ShellInfo {
  shellId: string;
  command: string;
  description: string;
  mode: ShellMode;
  detached: boolean;
  pid: number;
  status: ShellStatus;
  unreadBytes: number;
}

const FILE_POLL_MS = 200;
/** However chatty the children left holding its pipes, a shell counts as finished this long after it exits. */
const EXIT_DRAIN_MAX_MS = 2000;

/** One command started by the bash tool. */
export class Shell {
  status: ShellStatus = { state: "running" };
  /** Stopped by stop_bash, an abort or dispose. */
  interrupted = false;
  /** The model has seen the exit status; the shell can be forgotten. */
  exitReported = false;
  /** Its call returned before it exited. */
  backgrounded = false;
  readonly pid: number;
  readonly finished: Promise<void>;
  private resolveFinished!: () => void;
  private readonly listeners = new Set<(chunk: string) => void>();
  private idleTimer: NodeJS.Timeout | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private paused = false;
  private streamsOpen = true;
  private exitedAt = 0;

  constructor(
    readonly id: string,
    readonly options: StartShellOptions,
    readonly buffer: OutputBuffer,
    private readonly child: ChildProcess,
    private readonly exitIdleMs: number,
    private readonly readFd?: number,
  ) {
    this.pid = child.pid as number;
    this.finished = new Promise((resolve) => (this.resolveFinished = resolve));
    if (readFd === undefined) this.capturePipes();
    else this.followFile(readFd);
    child.on("exit", (exitCode, signal) => this.onExit(exitCode, signal));
  }

  get running(): boolean {
    return this.status.state === "running";
  }

  get detached(): boolean {
    return this.options.detach === true;
  }

  /** Whether its process group may still hold processes (running, or pipes held open by children). */
  get mayHaveProcesses(): boolean {
    return this.running || this.streamsOpen;
  }

  /** Subscribes to output chunks as they arrive. */
  onOutput(listener: (chunk: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(text: string): void {
    if (text === "") return;
    if (this.idleTimer && Date.now() - this.exitedAt < EXIT_DRAIN_MAX_MS) this.idleTimer.refresh();
    const ok = this.buffer.append(text);
    for (const listener of this.listeners) listener(text);
    if (!ok && !this.paused) {
      this.paused = true;
      this.child.stdout?.pause();
      this.child.stderr?.pause();
      void this.buffer.drained().then(() => {
        this.paused = false;
        this.child.stdout?.resume();
        this.child.stderr?.resume();
      });
    }
  }

  private capturePipes(): void {
    for (const stream of [this.child.stdout, this.child.stderr]) {
      if (!stream) continue;
      const decoder = new StringDecoder("utf8");
      stream.on("data", (chunk: Buffer) => this.emit(decoder.write(chunk)));
      stream.on("end", () => this.emit(decoder.end()));
    }
    this.child.on("close", () => {
      this.streamsOpen = false;
      this.finish();
    });
  }

  private followFile(fd: number): void {
    const decoder = new StringDecoder("utf8");
    const chunk = Buffer.alloc(64 * 1024);
    let offset = 0;
    this.pollFile = (all: boolean) => {
      for (let i = 0; all || i < 16; i++) {
        const n = readSync(fd, chunk, 0, chunk.length, offset);
        if (n <= 0) break;
        offset += n;
        this.emit(decoder.write(chunk.subarray(0, n)));
      }
      if (all) this.emit(decoder.end());
    };
    this.pollTimer = setInterval(() => this.pollFile(false), FILE_POLL_MS);
    this.pollTimer.unref();
  }

  /** Reads what a detached process has written to its log file so far. */
  pollFile: (all: boolean) => void = () => undefined;

  private exitInfo: { exitCode: number | null; signal: NodeJS.Signals | null } | undefined;

  private onExit(exitCode: number | null, signal: NodeJS.Signals | null): void {
    this.exitInfo = { exitCode, signal };
    this.exitedAt = Date.now();
    if (this.readFd !== undefined) {
      this.streamsOpen = false;
      this.finish();
      return;
    }
    // Children that inherited the pipes may keep them open; stop waiting once output has been quiet a while.
    this.idleTimer = setTimeout(() => {
      if (this.paused) this.idleTimer?.refresh();
      else this.finish();
    }, this.exitIdleMs);
  }

  private finish(): void {
    if (!this.exitInfo || !this.running) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.readFd !== undefined) {
      this.pollFile(true);
      closeSync(this.readFd);
    }
    this.status = { state: "exited", ...this.exitInfo };
    void this.buffer.close().then(() => this.resolveFinished());
  }

  /** Renders the output not read yet and marks it read (reading a detached shell's file first). */
  takeUnread(): RenderedOutput {
    if (this.detached && this.running) this.pollFile(false);
    return this.buffer.takeUnread();
  }

  /** Stops watching a detached process without killing it. */
  release(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.readFd !== undefined && this.running) closeSync(this.readFd);
    this.pollFile = () => undefined;
    this.child.removeAllListeners();
    this.child.unref();
  }

  info(): ShellInfo {
    const { command, description, mode } = this.options;
    const { id: shellId, pid, status, detached } = this;
    return { shellId, command, description, mode, detached, pid, status, unreadBytes: this.buffer.unreadBytes };
  }
}

/** The status line that ends a result: `<exited with exit code N>`, `<killed by signal S>`, `<still running>`. */
export function describeStatus(status: ShellStatus): string {
  if (status.state === "running") return "<still running>";
  if (status.signal) return `<killed by signal ${status.signal}>`;
  return `<exited with exit code ${status.exitCode ?? "unknown"}>`;
}

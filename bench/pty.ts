/**
 * A program in a pseudo-terminal for the TUI bench: util-linux `script -qfec "<command>" /dev/null` gives the
 * child a pty and copies its output to our pipe as it is written (-f), and what we write to script's stdin
 * reaches the program as typed keys. The command line sets the pty's size first (`stty cols … rows …`), then
 * `exec`s the program, so the pid of script's child is the program's own (for /proc CPU readings).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";

const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, "");
}

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

let clockTicks: number | undefined;

/** Kernel clock ticks per second (`getconf CLK_TCK`), for /proc/<pid>/stat times. */
export function clkTck(): number {
  if (clockTicks === undefined) {
    const value = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
    clockTicks = Number.isFinite(value) && value > 0 ? value : 100;
  }
  return clockTicks;
}

/** User + system CPU time of a process so far, in ms (resolution: one clock tick, usually 10 ms). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields after the command: state is #3, so utime (#14) and stime (#15) are at 11 and 12 here.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clkTck();
}

export function hasScript(): boolean {
  try {
    return execFileSync("script", ["--version"], { encoding: "utf8" }).includes("util-linux");
  } catch {
    return false;
  }
}

/** What an agent in a pseudo-terminal needs to reach a scripted server: its own HOME and AGENT_HOME, a terminal, the endpoint and model. */
export function ptyAgentEnv(home: string, baseUrl: string, model: string): NodeJS.ProcessEnv {
  return { HOME: home, AGENT_HOME: home, TERM: "xterm-256color", LANG: "C.UTF-8", OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: "test", AGENT_MODEL: model };
}

/** The environment a TUI bench run alone (tui-run.ts, tui-agents-run.ts) gives an agent: ours and `extra`, without NODE_OPTIONS. */
export function standaloneEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env["NODE_OPTIONS"];
  return env;
}

export interface PtyOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  cols?: number;
  rows?: number;
}

/** How long to wait for anything before giving up (a hung run must not hang the bench). */
const DEFAULT_TIMEOUT_MS = 30_000;

export class PtyRun {
  readonly child: ChildProcess;
  readonly startedAt: number;
  /** Everything the program wrote, raw (escape sequences included). */
  raw = "";
  exited = false;
  /** How script ended (it passes on the program's exit status). */
  exitStatus: string | undefined;
  private readonly waiters = new Set<() => void>();
  private readonly closed: Promise<void>;

  constructor(argv: readonly string[], options: PtyOptions) {
    const size = `stty cols ${options.cols ?? 100} rows ${options.rows ?? 30} 2>/dev/null; `;
    const command = `${size}exec ${argv.map(shellQuote).join(" ")}`;
    this.startedAt = performance.now();
    this.child = spawn("script", ["-qfec", command, "/dev/null"], { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      this.raw += chunk;
      for (const waiter of [...this.waiters]) waiter();
    });
    this.child.stderr?.resume();
    this.closed = new Promise((resolve) => {
      this.child.on("close", (code, signal) => {
        this.exited = true;
        this.exitStatus = signal ? `signal ${signal}` : `exit code ${code}`;
        for (const waiter of [...this.waiters]) waiter();
        resolve();
      });
    });
  }

  /** The program's pid (script's only child), once it exists. */
  async pid(timeoutMs = 5_000): Promise<number> {
    const parent = this.child.pid;
    const deadline = performance.now() + timeoutMs;
    while (parent !== undefined && performance.now() < deadline) {
      try {
        const first = readFileSync(`/proc/${parent}/task/${parent}/children`, "utf8").trim().split(/\s+/)[0];
        if (first) return Number(first);
      } catch {
        // script has not forked yet
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    throw new Error("pty: the program did not start");
  }

  /** Send keys (bytes) to the program. */
  write(data: string): void {
    this.child.stdin?.write(data);
  }

  /**
   * Resolve with the time (performance.now()) of the output chunk after which the text written since
   * `from` (an offset into `raw`), without escape sequences, contains `text`.
   */
  waitForText(text: string, from = 0, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<number> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (stripAnsi(this.raw.slice(from)).includes(text)) {
          done();
          resolve(performance.now());
        } else if (this.exited) {
          done();
          reject(
            new Error(
              `pty: the program exited (${this.exitStatus}) before showing ${JSON.stringify(text)}; its output ended:\n${stripAnsi(this.raw.slice(-1500))}`,
            ),
          );
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`pty: no ${JSON.stringify(text)} within ${timeoutMs} ms; the output ended:\n${stripAnsi(this.raw.slice(-1500))}`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
      check();
    });
  }

  /** Resolve when the program's CPU time has not moved for `quietMs` (it has settled), or after `timeoutMs`. */
  async settle(pid: number, quietMs = 200, timeoutMs = 5_000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    let last = cpuMs(pid);
    let since = performance.now();
    while (performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      const now = cpuMs(pid);
      if (now !== last) {
        last = now;
        since = performance.now();
      } else if (performance.now() - since >= quietMs) {
        return;
      }
    }
  }

  /** End the program (SIGTERM, then SIGKILL) and wait for script to close. */
  async stop(pid?: number): Promise<void> {
    if (this.exited) return;
    const target = pid ?? this.child.pid;
    try {
      if (target !== undefined) process.kill(target, "SIGTERM");
    } catch {
      // already gone
    }
    const timer = setTimeout(() => {
      try {
        if (target !== undefined) process.kill(target, "SIGKILL");
        this.child.kill("SIGKILL");
      } catch {
        // already gone
      }
    }, 5_000);
    await this.closed;
    clearTimeout(timer);
  }

  /** Wait for the program to end by itself. */
  wait(): Promise<void> {
    return this.closed;
  }
}

/**
 * A tmux driver for end-to-end tests of the interactive TUI.
 *
 *   const tmux = await TmuxServer.start();                        // private server: tmux -L <unique> -f /dev/null
 *   const pane = await tmux.open(`node ${AGENT_BIN}`, { cwd, env }); // a detached 100×30 session
 *   await pane.type("hello"); await pane.sendKeys("Enter");
 *   await pane.waitFor((screen) => screen.includes("Hi!"));
 *   await pane.close(); await tmux.kill();
 *
 * Every tmux call is asynchronous (execFile), so a scripted server living in the test process keeps
 * answering while the test waits. `waitFor` polls `capture-pane` until a condition holds, bounded by a
 * timeout; there are no fixed sleeps. Panes stay after their command exits (`remain-on-exit`), so a test
 * can read what was printed last and ask whether the process is gone.
 */
import { execFile, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "./temp-dirs.js";

/** Whether a tmux binary can be run here (the e2e suite is skipped otherwise). */
export const HAS_TMUX = (() => {
  try {
    return spawnSync("tmux", ["-V"], { stdio: "ignore" }).status === 0;
  } catch {
    return false;
  }
})();

const POLL_MS = 40;

function run(file: string, args: readonly string[], env: NodeJS.ProcessEnv, input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(file, [...args], { env, maxBuffer: 64 * 1024 * 1024, encoding: "utf8" }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file} ${args.join(" ")}: ${error.message}${stderr ? `\n${stderr}` : ""}`));
      else resolve(stdout);
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}

/** Single-quote a word for the shell tmux runs the pane's command with. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface OpenOptions {
  cwd: string;
  /** Added to the pane's environment (`new-session -e`). */
  env?: Record<string, string | undefined>;
  width?: number;
  height?: number;
}

export interface WaitOptions {
  /** Default 15 s. */
  timeoutMs?: number;
  /** Poll the whole history (`captureAll`) instead of the visible screen. */
  all?: boolean;
  /** What is awaited, for the timeout message. */
  what?: string;
}

export interface PaneInfo {
  pid: number;
  dead: boolean;
  /** Exit status once dead (undefined when killed by a signal, or not yet known). */
  status: number | undefined;
  /** The signal that killed it, if one did. */
  signal: number | undefined;
  width: number;
  height: number;
}

export class TmuxServer {
  private sessions = 0;
  private readonly scratch = tempDir("tmux-e2e-");

  private constructor(
    readonly socket: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Start a private server (no config file) that outlives its sessions and keeps dead panes on screen. */
  static async start(options: { historyLimit?: number } = {}): Promise<TmuxServer> {
    const socket = `agent-e2e-${process.pid}-${randomBytes(4).toString("hex")}`;
    // The server's own environment: only what a pane needs; per-session variables come with `open`.
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, LANG: "C.UTF-8", TERM: "xterm-256color" };
    if (process.env.TMUX_TMPDIR) env.TMUX_TMPDIR = process.env.TMUX_TMPDIR;
    const server = new TmuxServer(socket, env);
    await server.tmux(
      ["start-server", ";", "set-option", "-g", "exit-empty", "off", ";", "set-option", "-g", "remain-on-exit", "on"]
        .concat([";", "set-option", "-g", "history-limit", String(options.historyLimit ?? 50_000)])
        .concat([";", "set-option", "-g", "default-terminal", "tmux-256color"]),
    );
    return server;
  }

  tmux(args: readonly string[], input?: string): Promise<string> {
    return run("tmux", ["-L", this.socket, "-f", "/dev/null", ...args], this.env, input);
  }

  /** Run `command` (a shell command line) in a new detached session of `width`×`height` (default 100×30). */
  async open(command: string, options: OpenOptions): Promise<TmuxPane> {
    const name = `s${this.sessions++}`;
    const vars = Object.entries(options.env ?? {}).flatMap(([key, value]) => (value === undefined ? [] : ["-e", `${key}=${value}`]));
    const size = ["-x", String(options.width ?? 100), "-y", String(options.height ?? 30)];
    await this.tmux(["new-session", "-d", "-s", name, ...size, "-c", options.cwd, ...vars, command]);
    // A detached session follows the size of the largest client; with none, keep the size we asked for.
    await this.tmux(["set-option", "-t", name, "window-size", "manual"]);
    return new TmuxPane(this, name, this.scratch);
  }

  /** Stop the server (and every process still running in its panes), and remove its socket file. */
  async kill(): Promise<void> {
    const socketPath = (await this.tmux(["display-message", "-p", "#{socket_path}"]).catch(() => "")).trim();
    await this.tmux(["kill-server"]).catch(() => "");
    if (socketPath.endsWith(this.socket)) rmSync(socketPath, { force: true });
    rmSync(this.scratch, { recursive: true, force: true });
  }
}

export class TmuxPane {
  private pastes = 0;

  constructor(
    private readonly server: TmuxServer,
    readonly target: string,
    private readonly scratch: string,
  ) {}

  /** tmux key names: "Enter", "C-c", "BTab", "Escape", "Up", … */
  async sendKeys(...keys: string[]): Promise<void> {
    await this.server.tmux(["send-keys", "-t", this.target, ...keys]);
  }

  /** Literal text, typed as it is (no key-name lookup). */
  async type(text: string): Promise<void> {
    await this.server.tmux(["send-keys", "-t", this.target, "-l", text]);
  }

  /** Paste `text` the way a terminal does: bracketed when the program asked for it (`paste-buffer -p`). */
  async paste(text: string): Promise<void> {
    const file = path.join(this.scratch, `paste-${this.target}-${this.pastes++}.txt`);
    writeFileSync(file, text);
    const buffer = `${this.target}-paste`;
    await this.server.tmux(["load-buffer", "-b", buffer, file]);
    await this.server.tmux(["paste-buffer", "-p", "-d", "-b", buffer, "-t", this.target]);
  }

  /** The visible screen, one line per row (trailing blanks trimmed by tmux). */
  capture(): Promise<string> {
    return this.server.tmux(["capture-pane", "-p", "-t", this.target]);
  }

  /** The visible screen with its colours and attributes as SGR escape sequences (`capture-pane -e`). */
  captureStyled(): Promise<string> {
    return this.server.tmux(["capture-pane", "-p", "-e", "-t", this.target]);
  }

  /** Scrollback and screen together, wrapped lines joined. */
  captureAll(): Promise<string> {
    return this.server.tmux(["capture-pane", "-p", "-J", "-S", "-", "-E", "-", "-t", this.target]);
  }

  async info(): Promise<PaneInfo> {
    const format = "#{pane_pid}|#{pane_dead}|#{pane_dead_status}|#{pane_dead_signal}|#{pane_width}|#{pane_height}";
    const out = (await this.server.tmux(["display-message", "-p", "-t", this.target, format])).trim();
    const [pid, dead, status, signal, width, height] = out.split("|");
    const num = (value: string | undefined) => (value === undefined || value === "" ? undefined : Number(value));
    return {
      pid: Number(pid),
      dead: dead === "1",
      status: num(status),
      signal: num(signal),
      width: Number(width),
      height: Number(height),
    };
  }

  async resize(width: number, height?: number): Promise<void> {
    await this.server.tmux(["resize-window", "-t", this.target, "-x", String(width), ...(height === undefined ? [] : ["-y", String(height)])]);
  }

  /**
   * Poll until `predicate(text)` holds (text: the screen, or the whole history with `all`), returning that
   * text. Throws after `timeoutMs` with the last capture, so a failure shows what was on screen.
   */
  async waitFor(predicate: (text: string) => boolean, options: WaitOptions = {}): Promise<string> {
    const timeoutMs = options.timeoutMs ?? 15_000;
    const deadline = Date.now() + timeoutMs;
    let last = "";
    for (;;) {
      last = options.all ? await this.captureAll() : await this.capture();
      if (predicate(last)) return last;
      if (Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    throw new Error(`tmux: timed out after ${timeoutMs} ms waiting for ${options.what ?? "a condition"}; the pane showed:\n${last}`);
  }

  /** Wait until the screen contains `text`. */
  waitForText(text: string, options: Omit<WaitOptions, "what"> = {}): Promise<string> {
    return this.waitFor((screen) => screen.includes(text), { ...options, what: JSON.stringify(text) });
  }

  /**
   * Poll until the pane's command has exited (its pty closed). The exit status in the result is often
   * undefined: the tmux 3.3 here regularly leaves a pane's exited child unreaped (a zombie, even for
   * `sleep 0.2`), so a test that needs the status should print it from a shell: `cmd; echo "EXIT=$?"`.
   */
  async waitForExit(timeoutMs = 15_000): Promise<PaneInfo> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const info = await this.info();
      if (info.dead) return info;
      if (Date.now() > deadline) throw new Error(`tmux: the pane's command did not exit within ${timeoutMs} ms:\n${await this.capture()}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Kill this pane's session (its processes get SIGHUP). */
  async close(): Promise<void> {
    await this.server.tmux(["kill-session", "-t", this.target]).catch(() => "");
  }
}

/** "running" (or sleeping…), "zombie" (exited, not yet reaped) or "gone". */
export function processState(pid: number): "running" | "zombie" | "gone" {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z") ? "zombie" : "running";
  } catch {
    return "gone";
  }
}

/** The direct children of a process (Linux /proc). */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter((part) => part !== "")
      .map(Number);
  } catch {
    return [];
  }
}

/** Poll an arbitrary condition (not the pane), bounded by a timeout. */
export async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

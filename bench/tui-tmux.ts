/**
 * A program in a tmux window, for the TUI bench's "what a person sees" figures: the time from asking tmux to
 * start the program until a text is on tmux's screen (capture-pane), polled every POLL_MS. tmux parses
 * everything the program writes before it can show it, so a program that writes a lot (a long history) is
 * measured as a person would see it, which the pty's byte stream (pty.ts) does not show. Its own server
 * (-L, no config), one window per run, closed after it (a program that ends on its own takes its screen with
 * it: keep it alive until the text is read, as bareLine does).
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { shellQuote } from "./pty.js";

const run = promisify(execFile);
const POLL_MS = 5;

export function hasTmux(): boolean {
  try {
    return execFileSync("tmux", ["-V"], { encoding: "utf8" }).startsWith("tmux");
  } catch {
    return false;
  }
}

/** A bare `node -e` that writes `text` as its one line and then waits (to be closed) so tmux keeps its screen. */
export function bareLine(text: string): string[] {
  return [process.execPath, "-e", `process.stdout.write(${JSON.stringify(`${text}\n`)}); setTimeout(() => undefined, 60000);`];
}

export class TmuxServer {
  private readonly socket = `agent-bench-${process.pid}-${Date.now()}`;
  private started = false;

  constructor(
    private readonly cols = 100,
    private readonly rows = 30,
  ) {}

  private tmux(args: string[]): Promise<{ stdout: string }> {
    return run("tmux", ["-L", this.socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  }

  private async start(): Promise<void> {
    if (this.started) return;
    await this.tmux(["new-session", "-d", "-s", "bench", "-x", String(this.cols), "-y", String(this.rows)]);
    this.started = true;
  }

  /**
   * Runs `argv` in a new window (in `cwd`, with exactly `env` for the variables given) and resolves with the
   * ms from the request until `text` is on the window's screen; the window is closed after.
   */
  async timeUntilShown(argv: readonly string[], text: string, options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<number> {
    await this.start();
    const assignments = Object.entries(options.env)
      .filter((entry): entry is [string, string] => entry[1] !== undefined)
      .map(([key, value]) => `${key}=${shellQuote(value)}`);
    const command = `cd ${shellQuote(options.cwd)} && exec env -i ${assignments.join(" ")} ${argv.map(shellQuote).join(" ")}`;
    const started = performance.now();
    const { stdout } = await this.tmux(["new-window", "-d", "-P", "-F", "#{window_id}", command]);
    const window = stdout.trim();
    const deadline = started + (options.timeoutMs ?? 30_000);
    try {
      for (;;) {
        const screen = (await this.tmux(["capture-pane", "-p", "-t", window])).stdout;
        if (screen.includes(text)) return performance.now() - started;
        if (performance.now() > deadline) throw new Error(`tmux: no ${JSON.stringify(text)} within ${options.timeoutMs ?? 30_000} ms; the screen:\n${screen}`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    } finally {
      await this.tmux(["kill-window", "-t", window]).catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    if (this.started) await this.tmux(["kill-server"]).catch(() => undefined);
    this.started = false;
  }
}

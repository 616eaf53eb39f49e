/**
 * Puts the terminal into the modes the TUI needs and, whatever happens, puts it back: raw mode, bracketed
 * paste, the kitty keyboard protocol and xterm's modifyOtherKeys (so Shift+Enter is told apart where the
 * terminal can), the cursor. Restoring is idempotent and runs on exit, SIGTERM, SIGHUP and crashes.
 */
const ENTER = "\u001b[?2004h\u001b[>1u\u001b[>4;1m";
const LEAVE = "\u001b[?2004l\u001b[<u\u001b[>4;0m\u001b[?25h";

export interface TerminalStreams {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
}

export class TerminalModes {
  private active = false;
  /** The modes' sequences were written (by announce or enter). */
  private announced = false;
  private readonly handlers: [string, (...args: unknown[]) => void][] = [];

  constructor(private readonly streams: TerminalStreams) {}

  enter(): void {
    if (this.active) return;
    this.active = true;
    const { stdin } = this.streams;
    if (stdin.isTTY) stdin.setRawMode(true);
    stdin.setEncoding("utf8");
    stdin.resume();
    this.announce();
  }

  /**
   * Writes the modes' sequences without reading stdin (keys typed meanwhile wait in the terminal, unread):
   * for the first frame drawn before the TUI has loaded, so a paste into it is already bracketed.
   */
  announce(): void {
    if (this.announced) return;
    this.announced = true;
    this.streams.stdout.write(ENTER);
  }

  /** Leaves every mode entered; safe to call more than once and from signal handlers. */
  readonly restore = (): void => {
    if (!this.active && !this.announced) return;
    this.active = false;
    this.announced = false;
    const { stdin, stdout } = this.streams;
    try {
      stdout.write(LEAVE);
    } catch {
      // the terminal may be gone (SIGHUP)
    }
    try {
      if (stdin.isTTY) stdin.setRawMode(false);
      stdin.pause();
    } catch {
      // ditto
    }
  };

  /**
   * Restores the terminal on every way out. `onSignal` runs first for SIGTERM/SIGHUP/SIGINT (to shut the
   * session down); crashes print the error after the terminal is back to normal.
   */
  installExitHandlers(onSignal: (signal: NodeJS.Signals) => void): void {
    const on = (event: string, handler: (...args: unknown[]) => void) => {
      process.on(event, handler);
      this.handlers.push([event, handler]);
    };
    on("exit", () => this.restore());
    for (const signal of ["SIGTERM", "SIGHUP", "SIGINT"] as const) {
      on(signal, () => {
        this.restore();
        onSignal(signal);
      });
    }
    const crash = (error: unknown) => {
      this.restore();
      process.stderr.write(`\nagent: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    };
    on("uncaughtException", crash);
    on("unhandledRejection", crash);
  }

  removeExitHandlers(): void {
    for (const [event, handler] of this.handlers.splice(0)) process.off(event, handler);
  }
}

/**
 * The TUI's first frame, written straight to the terminal before Ink is loaded. Loading Ink, React, yoga and
 * the app's components, then Ink's first layout and paint, took about 60% of the time from launch to the
 * first frame (bench/tui.ts, docs/benchmarks.md); the idle prompt does not need any of it. This module draws
 * the same lines Ink's first frame draws (the header, a resumed session's last exchange, the empty composer,
 * its hints, the footer saying "Starting…"), and Ink's first paint, in the same synchronized update, erases them and draws its own over
 * them, so nothing moves. test/ui/first-frame.test.tsx keeps the two identical.
 *
 * The early frame is plain text: in a colour terminal Ink's first paint brings the colours over the same
 * characters. When a line would not fit the width (Ink wraps or cuts it) or the
 * terminal is too short to hold it, there is no early frame and Ink draws the first one as before.
 */
import stripAnsi from "strip-ansi";
import type { AgentMode } from "../protocol/events/index.js";
import { footerSegments, plain } from "./components/footer-segments.js";
import type { TerminalModes } from "./terminal/terminal-modes.js";
import type { Theme } from "./theme.js";

export const IDLE_PLACEHOLDER = "Ask anything · / for commands · @ to mention files · ? for help";
export const IDLE_HINT = "Enter send · Shift+Enter/Ctrl+J newline · @ files · / commands · ? help";
/** What the footer says until the session is open. */
export const STARTING_HINT = "Starting…";
/** The footer's permission label before the session has said what it allows. */
const NOT_YET_ALLOWED = "Manual Approval";
const HIDE_CURSOR = "\u001b[?25l";
/**
 * Characters one column wide whatever the terminal (Latin, punctuation, arrows, box drawing): a line of only
 * these is as wide as it is long. string-width would answer for any text, but its first call compiles an
 * emoji pattern (~20 ms); a line with anything else gets no early frame.
 */
const ONE_COLUMN = /^[\u0020-\u007e\u00a0-\u00ac\u00ae-\u02ff\u2010-\u2027\u2030-\u205e\u2190-\u2193\u2500-\u257f\u25cb\u25cf\u2713\u2717]*$/;

/** The two lines at the top of the transcript. */
export function headerLines(version: string, model: string, cwd: string): [string, string] {
  return [`agent ${version}`, `${model} · ${cwd} · ? for help, / for commands`];
}

export interface FirstFrameOptions {
  version: string;
  model: string;
  mode: AgentMode;
  cwd: string;
  columns: number;
  rows: number;
  theme: Theme;
  /** A resumed session's last exchange (print-past.ts's previewOfTail), shown above the composer. */
  preview?: string;
}

export interface EarlyFrame {
  /** What to write. */
  text: string;
  /** How many lines it takes (the cursor is left on the line after them). */
  lines: number;
  /** The last exchange it shows, which Ink's first frame must show too. */
  preview?: string;
  /** The terminal's modes, announced with the frame (a paste into it is bracketed); the TUI enters them. */
  terminal?: TerminalModes;
}

/** The first frame as plain lines, or undefined when it cannot be drawn before Ink (see above). */
export function earlyFrame(options: FirstFrameOptions): EarlyFrame | undefined {
  const width = Math.max(1, options.columns);
  const rule = "─".repeat(width);
  const { left, right } = footerSegments({
    mode: options.mode,
    model: options.model,
    permissionMode: NOT_YET_ALLOWED,
    usage: undefined,
    cwd: options.cwd,
    backgroundCount: 0,
    theme: options.theme,
    width,
    busy: false,
    hint: STARTING_HINT,
  });
  const header = [...headerLines(options.version, options.model, options.cwd), ""];
  const live = [
    ...(options.preview !== undefined ? options.preview.split("\n") : []),
    rule,
    `› ${IDLE_PLACEHOLDER}`,
    rule,
    IDLE_HINT,
    plain([...left, ...right]),
  ];
  const lines = [...header, ...live];
  // Ink cuts or wraps a line wider than the terminal, and repaints everything when its frame is taller.
  const fits = (line: string) => {
    const shown = stripAnsi(line);
    return ONE_COLUMN.test(shown) && shown.length <= width;
  };
  if (!lines.every(fits) || lines.length + 1 >= options.rows) return undefined;
  return {
    text: `${header.join("\n")}\n${HIDE_CURSOR}${live.join("\n")}\n`,
    lines: lines.length,
    ...(options.preview !== undefined ? { preview: options.preview } : {}),
  };
}

const SYNC_START = "\u001b[?2026h";

/**
 * Erases the early frame line by line from the cursor's line up to its first, as Ink erases its own output:
 * one erase to the end of the screen from the top left would make tmux push the screen into its scrollback.
 */
export function eraseEarlyFrame(frame: EarlyFrame): string {
  return `${"\u001b[2K\u001b[1A".repeat(frame.lines)}\u001b[2K\u001b[G`;
}

/**
 * Makes Ink's first paint replace an early frame: its first write with something in it (after the
 * synchronized-update start, when it sends one) is prefixed with the early frame's erasure. Ink's frame is the same text, so the terminal shows no change.
 */
export function replaceEarlyFrameOnFirstWrite(stdout: NodeJS.WriteStream, frame: EarlyFrame): void {
  const write = stdout.write;
  const patched = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
    if (typeof chunk !== "string" || chunk === SYNC_START || chunk === "") return (write as (...args: unknown[]) => boolean).call(stdout, chunk, ...rest);
    stdout.write = write;
    return (write as (...args: unknown[]) => boolean).call(stdout, `${eraseEarlyFrame(frame)}${chunk}`, ...rest);
  };
  stdout.write = patched as typeof stdout.write;
}

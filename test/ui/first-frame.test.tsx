/**
 * The idle prompt written before Ink loads (src/ui/first-frame.ts) is the frame Ink then draws: Ink's first
 * paint moves back over it, erases it and writes the same lines, in one write. When the early frame would
 * not be what Ink draws (colour, a narrow or short terminal, wide characters), there is none.
 */
import { PassThrough } from "node:stream";
import stripAnsi from "strip-ansi";
import { describe, expect, it } from "vitest";
import { MemoryPromptHistory } from "../../src/session/prompt-history.js";
import type { AgentMode, SessionEvent } from "../../src/protocol/events/index.js";
import { earlyFrame, eraseEarlyFrame, type EarlyFrame, type FirstFrameOptions } from "../../src/ui/first-frame.js";
import type { SessionHost } from "../../src/ui/session-host.js";
import { plainTheme } from "../../src/ui/theme.js";
import { FakeTerminal } from "../support/fake-terminal.js";

// As the real command loads the TUI (cli/interactive.ts): Ink must not take this run for CI and hold its frames.
process.env.CI = "0";
const { runTui } = await import("../../src/ui/run-tui.js");

class RecordingTerminal extends FakeTerminal {
  writes: string[] = [];
  override _write(chunk: Buffer, encoding: BufferEncoding, done: () => void): void {
    this.writes.push(chunk.toString("utf8"));
    super._write(chunk, encoding, done);
  }
}

const options = (overrides: Partial<FirstFrameOptions> = {}): FirstFrameOptions => ({
  version: "1.2.3",
  model: "gpt-test",
  mode: "interactive",
  cwd: "/work/project",
  columns: 100,
  rows: 30,
  theme: plainTheme,
  ...overrides,
});

function startingHost(cwd: string): SessionHost & { listFiles(query: string): Promise<string[]> } {
  return {
    ready: false,
    get session(): never {
      throw new Error("not open");
    },
    history: [],
    instructionFiles: [],
    cwd,
    startNew: async () => undefined,
    switchTo: async () => undefined,
    listSessions: async () => [],
    onSwitch: () => () => undefined,
    listFiles: async () => [],
  };
}

/**
 * Writes the early frame to a terminal, starts the TUI over it (its session never opens) and returns what Ink's
 * first paint wrote (from its synchronized-update start to its end) and what was written before it.
 */
async function paintOver(
  frame: EarlyFrame,
  columns: number,
  mode: AgentMode,
  resumeTail?: () => Promise<SessionEvent[]>,
): Promise<{ paint: string; before: string }> {
  const stdout = new RecordingTerminal(columns, 30);
  stdout.write(frame.text);
  let fail: (error: Error) => void = () => undefined;
  const opening = new Promise<void>((_resolve, reject) => (fail = reject));
  opening.catch(() => undefined); // ended below, maybe before the runner asks for it
  const run = runTui({
    host: startingHost("/work/project"),
    openSession: () => opening,
    ...(resumeTail ? { resumeTail } : {}),
    initial: { mode, model: "gpt-test" },
    theme: plainTheme,
    history: new MemoryPromptHistory(),
    version: "1.2.3",
    earlyFrame: frame,
    stdin: Object.assign(new PassThrough(), { isTTY: false }) as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
  });
  // Ink's frame right after the early one (its writes for one paint come in one go).
  await stdout.waitFor("Starting…\nagent 1.2.3");
  const writes = stdout.writes.slice(1);
  const from = writes.indexOf("\u001b[?2026h");
  fail(new Error("not opened in this test"));
  await run;
  return { paint: writes.slice(from + 1, writes.indexOf("\u001b[?2026l", from)).join(""), before: writes.slice(0, from).map(stripAnsi).join("") };
}

describe("the TUI's early first frame", () => {
  it.each([
    ["interactive", 100],
    ["plan", 100],
    ["autopilot", 72],
  ] as const)("is what Ink's first paint draws over it (%s mode, %i columns)", async (mode, columns) => {
    const frame = earlyFrame(options({ mode, columns }));
    expect(frame).toBeDefined();
    if (!frame) return;
    const { paint, before } = await paintOver(frame, columns, mode);
    // Nothing visible was drawn before it.
    expect(before).toBe("");
    // The early frame erased line by line back to its first line, then Ink's frame: the same text.
    expect(paint.startsWith(eraseEarlyFrame(frame))).toBe(true);
    expect(stripAnsi(paint)).toBe(stripAnsi(frame.text));
  });

  it("shows a resumed session's last exchange, as Ink's first paint does", async () => {
    const preview = "› question 3\n\nAnswer number 3: \u001b[1mbold\u001b[22m and ✓ done.";
    const frame = earlyFrame(options({ preview }));
    expect(frame?.preview).toBe(preview);
    if (!frame) return;
    // Not read again: the preview is already on the screen.
    const { paint } = await paintOver(frame, 100, "interactive", async () => {
      throw new Error("the tail was read twice");
    });
    expect(frame.lines).toBe(3 + 3 + 5);
    expect(paint.startsWith(eraseEarlyFrame(frame))).toBe(true);
    expect(stripAnsi(paint)).toBe(stripAnsi(frame.text));
    expect(stripAnsi(frame.text)).toContain("Answer number 3: bold and ✓ done.");
  });

  it("is not drawn when Ink would draw something else", () => {
    expect(earlyFrame(options({ columns: 60 }))).toBeUndefined(); // the placeholder would wrap
    expect(earlyFrame(options({ rows: 9 }))).toBeUndefined();
    expect(earlyFrame(options({ cwd: "/work/プロジェクト" }))).toBeUndefined();
    expect(earlyFrame(options({ model: "🤖" }))).toBeUndefined();
    expect(earlyFrame(options({ rows: 10 }))).toBeDefined();
    expect(earlyFrame(options({ preview: "a line\n".repeat(21).trim(), rows: 30 }))).toBeUndefined(); // taller than the terminal
    expect(earlyFrame(options({ preview: "an emoji 🎉" }))).toBeUndefined();
  });
});

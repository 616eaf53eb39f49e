/**
 * Model and tool text never drives the terminal: the hostile corpus is neutralised by the shared function,
 * in the TUI's rendering (through the transcript reducer) and in headless text mode, while our own colours
 * survive.
 */
import { describe, expect, it } from "vitest";
import { TextPrinter, type TextStyle } from "../../src/cli/text-printer.js";
import type { SessionEvent } from "../../src/protocol/events/index.js";
import { HistoryItem } from "../../src/ui/components/history-item.js";
import { reduceTranscript } from "../../src/ui/state/reduce-transcript.js";
import { initialTranscript } from "../../src/ui/state/transcript-types.js";
import { createTheme } from "../../src/ui/theme.js";
import { neutraliseDeep, neutraliseTerminalText, splitTrailingEscape } from "../../src/util/terminal-text.js";
import { CONTROL_LEFT, HOSTILE_SAMPLES } from "../support/hostile-terminal-text.js";
import { renderTui } from "../support/render-tui.js";

const OUR_SGR = /\u001b\[[0-9;]*m/g;

describe("neutraliseTerminalText", () => {
  it.each(HOSTILE_SAMPLES)("neutralises $name", ({ text, payload, visible }) => {
    const out = neutraliseTerminalText(text);
    expect(out).not.toMatch(CONTROL_LEFT);
    expect(out).not.toContain(payload);
    for (const part of visible) expect(out).toContain(part);
  });

  it("keeps newlines, tabs and non-ASCII text, and returns clean text unchanged", () => {
    const clean = "line one\n\tindented — ünïcödé 日本語 🎉";
    expect(neutraliseTerminalText(clean)).toBe(clean);
    expect(neutraliseTerminalText("a\r\nb")).toBe("a\nb");
  });

  it("stays linear on a flood of unterminated introducers", () => {
    const flood = "\u009d".repeat(200_000) + "\u001b]".repeat(200_000);
    expect(neutraliseTerminalText(flood)).toBe("");
  });

  it("cleans every string of an event and copies only what changed", () => {
    const clean = { a: "x", list: ["y"] };
    expect(neutraliseDeep(clean)).toBe(clean);
    const dirty = { a: "x\u001b[2J", nested: { list: ["ok", "\u0007bell"] }, n: 3 };
    expect(neutraliseDeep(dirty)).toEqual({ a: "x", nested: { list: ["ok", "bell"] }, n: 3 });
    expect(dirty.a).toBe("x\u001b[2J");
  });
});

let counter = 0;
const event = (type: string, data: Record<string, unknown>): SessionEvent =>
  ({ id: `e${++counter}`, timestamp: new Date(0).toISOString(), parentId: null, type, data }) as unknown as SessionEvent;

describe("sequences split between streamed chunks", () => {
  /** Every way of cutting `text` in two, through the reducer's path: carry, then neutralise. */
  function streamed(text: string, cut: number): string {
    const [first, carry] = splitTrailingEscape(text.slice(0, cut));
    const [second] = splitTrailingEscape(carry + text.slice(cut));
    return neutraliseTerminalText(first) + neutraliseTerminalText(second);
  }

  it.each(HOSTILE_SAMPLES.filter((sample) => !sample.name.startsWith("unterminated") && !sample.name.startsWith("lone")))(
    "$name leaves no payload at any cut",
    ({ text, payload }) => {
      for (let cut = 0; cut <= text.length; cut++) {
        const out = streamed(text, cut);
        expect(out).not.toMatch(CONTROL_LEFT);
        expect(out).not.toContain(payload.replace(/^\u001b/, ""));
        expect(out).toBe(neutraliseTerminalText(text));
      }
    },
  );

  it("passes clean text through without a carry", () => {
    expect(splitTrailingEscape("plain text")).toEqual(["plain text", ""]);
    expect(splitTrailingEscape("a\u001b[31mb")).toEqual(["a\u001b[31mb", ""]);
    expect(splitTrailingEscape("a\u001b]0;ti")).toEqual(["a", "\u001b]0;ti"]);
  });
});

describe("the TUI shows hostile text harmlessly", () => {
  const theme = createTheme({ FORCE_COLOR: "1" }, true);

  it.each(HOSTILE_SAMPLES)("in answers, reasoning, tool titles and output, errors: $name", ({ text, payload, visible }) => {
    const state = [
      event("assistant.reasoning", { reasoningId: "r", content: `think ${text}` }),
      event("assistant.message", { messageId: "m", content: `answer ${text}` }),
      event("tool.execution_start", { toolCallId: "t", toolName: "bash", arguments: { command: `echo ${text}` } }),
      event("tool.execution_complete", { toolCallId: "t", success: false, error: { message: `boom ${text}` } }),
      event("session.error", { errorType: "x", message: `bad ${text}` }),
    ].reduce((current, next) => reduceTranscript(current, next, 0), initialTranscript({ mode: "interactive", model: "m" }));
    expect(state.items.length).toBeGreaterThanOrEqual(4);
    for (const item of state.items) {
      const tui = renderTui(<HistoryItem item={item} width={200} theme={theme} showReasoning />);
      const raw = tui.rawFrame();
      tui.unmount();
      // (A lone ESC is also how our own colours start: look for it once they are taken out.)
      if (payload.length > 1) expect(raw).not.toContain(payload);
      expect(raw.replace(OUR_SGR, "")).not.toContain(payload);
      // Our own colours are there; nothing else that drives the terminal is.
      expect(raw.replace(OUR_SGR, "")).not.toMatch(CONTROL_LEFT);
      for (const part of visible) expect(raw.replace(OUR_SGR, "")).toContain(part);
    }
  });

  it("keeps the colours we add", () => {
    const state = reduceTranscript(
      initialTranscript({ mode: "interactive", model: "m" }),
      event("session.error", { errorType: "x", message: "\u001b]0;t\u0007failed" }),
      0,
    );
    const tui = renderTui(<HistoryItem item={state.items[0] as never} width={80} theme={theme} showReasoning={false} />);
    expect(tui.rawFrame()).toMatch(/\u001b\[31m/);
    tui.unmount();
  });
});

describe("headless text mode", () => {
  const red: TextStyle = { dim: (t) => `\u001b[2m${t}\u001b[22m`, red: (t) => `\u001b[31m${t}\u001b[39m`, green: (t) => t, yellow: (t) => t };
  const hostile = HOSTILE_SAMPLES.map((sample) => sample.text).join(" | ");

  function print(stdoutIsTerminal: boolean) {
    let stdout = "";
    let stderr = "";
    const printer = new TextPrinter(
      { write: (t: string) => (stdout += t) },
      { write: (t: string) => (stderr += t) },
      { silent: false, style: red, stdoutIsTerminal },
    );
    printer.onEvent(event("assistant.message_delta", { messageId: "m", deltaContent: `answer ${hostile}` }));
    printer.onEvent(event("tool.execution_start", { toolCallId: "t", toolName: "bash", arguments: { command: `echo ${hostile}` } }));
    printer.onEvent(event("tool.execution_complete", { toolCallId: "t", success: true, result: { content: `out ${hostile}` } }));
    printer.onEvent(event("tool.execution_complete", { toolCallId: "u", success: false, error: { message: `err ${hostile}` } }));
    printer.onEvent(event("session.error", { errorType: "x", message: `bad ${hostile}` }));
    return { stdout, stderr };
  }

  it("neutralises stderr traces always, keeping its own colours", () => {
    const { stderr } = print(false);
    expect(stderr).toContain("\u001b[31m");
    expect(stderr.replace(OUR_SGR, "")).not.toMatch(CONTROL_LEFT);
    for (const sample of HOSTILE_SAMPLES) expect(stderr.replace(OUR_SGR, "")).not.toContain(sample.payload);
  });

  it("prints the answer as written when stdout is not a terminal", () => {
    expect(print(false).stdout).toContain(`answer ${hostile}`);
  });

  it("neutralises the answer when stdout is a terminal", () => {
    const { stdout } = print(true);
    expect(stdout).not.toMatch(CONTROL_LEFT);
    expect(stdout).toContain("answer before");
  });
});

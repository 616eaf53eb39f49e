import stringWidth from "string-width";
import { describe, expect, it, vi } from "vitest";
import { formatElapsed, outputTail, RunningTools, Spinner, SPINNER_FRAMES } from "../../src/ui/components/running-tools.js";
import type { RunningTool } from "../../src/ui/state/transcript-types.js";
import { plainTheme } from "../../src/ui/theme.js";
import { useTickingTui } from "../support/ticking-tui.js";

const tool = (overrides: Partial<RunningTool> = {}): RunningTool => ({
  toolCallId: "call-1",
  name: "bash",
  title: "Run the test suite",
  startedAt: 1_000,
  output: "",
  ...overrides,
});

const spinnerChar = (frame: string) => [...frame][0] ?? "";

const render = useTickingTui();

describe("running tools", () => {
  it("shows a spinner, the title and the elapsed time", async () => {
    const tui = render(<RunningTools tools={[tool()]} theme={plainTheme} width={80} now={13_500} />);
    const frame = await tui.waitForFrame((text) => text.includes("Run the test suite"));
    expect(SPINNER_FRAMES).toContain(spinnerChar(frame));
    expect(frame).toContain("Run the test suite (12s)");
  });

  it("shows the last lines of the output, cleaned and cut to the width", async () => {
    const output = ["line 1", "line 2", "line 3", "\u001b[32mline 4 in green\u001b[0m", "progress 10%\rprogress 100%", `line 6 ${"y".repeat(200)}`, ""].join(
      "\n",
    );
    const tui = render(<RunningTools tools={[tool({ output })]} theme={plainTheme} width={60} now={2_000} />);
    const frame = await tui.waitForFrame((text) => text.includes("line 6"));
    expect(frame).not.toContain("line 2");
    expect(frame).toContain("line 3");
    expect(frame).toContain("line 4 in green");
    expect(frame).not.toContain("\u001b");
    expect(frame).toContain("progress 100%");
    expect(frame).not.toContain("progress 10%");
    for (const line of frame.split("\n")) expect(stringWidth(line)).toBeLessThanOrEqual(60);
  });

  it("shows each of several tools", async () => {
    const tui = render(
      <RunningTools tools={[tool(), tool({ toolCallId: "call-2", title: "src/app.ts", startedAt: 0 })]} theme={plainTheme} width={80} now={65_000} />,
    );
    const frame = await tui.waitForFrame((text) => text.includes("src/app.ts"));
    expect(frame).toContain("Run the test suite (1m 04s)");
    expect(frame).toContain("src/app.ts (1m 05s)");
  });

  it("animates the spinner while a tool runs", async () => {
    const tui = render(<RunningTools tools={[tool()]} theme={plainTheme} width={80} now={2_000} />);
    const first = spinnerChar(await tui.waitForFrame((text) => text.includes("Run the test suite")));
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(250);
    const later = await tui.waitForFrame((text) => spinnerChar(text) !== first);
    expect(SPINNER_FRAMES).toContain(spinnerChar(later));
  });

  it("renders nothing and starts no timer when no tool runs", async () => {
    const tui = render(<RunningTools tools={[]} theme={plainTheme} width={80} />);
    await tui.flush();
    expect(tui.frame()).toBe("");
    const count = tui.frames().length;
    expect(vi.getTimerCount()).toBe(0);
    for (let index = 0; index < 5; index++) {
      vi.advanceTimersByTime(1_000);
      await tui.flush();
    }
    expect(tui.frames().length).toBe(count);
  });

  it("stops its timer when the last tool finishes", async () => {
    const tui = render(<RunningTools tools={[tool()]} theme={plainTheme} width={80} />);
    await tui.flush();
    expect(vi.getTimerCount()).toBe(1);
    tui.rerender(<RunningTools tools={[]} theme={plainTheme} width={80} />);
    await tui.flush();
    expect(vi.getTimerCount()).toBe(0);
    const count = tui.frames().length;
    vi.advanceTimersByTime(2_000);
    await tui.flush();
    expect(tui.frames().length).toBe(count);
  });
});

describe("the spinner", () => {
  it("runs its own timer unless told a frame or to stop", async () => {
    const tui = render(<Spinner theme={plainTheme} />);
    const first = await tui.waitForFrame((text) => text !== "");
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(100);
    expect(await tui.waitForFrame((text) => text !== first)).not.toBe(first);
    tui.rerender(<Spinner theme={plainTheme} frame={3} />);
    expect(await tui.waitForFrame((text) => text === SPINNER_FRAMES[3])).toBe(SPINNER_FRAMES[3]);
    expect(vi.getTimerCount()).toBe(0);
    tui.rerender(<Spinner theme={plainTheme} active={false} />);
    await tui.flush();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("helpers", () => {
  it("formats elapsed time", () => {
    expect(formatElapsed(-5)).toBe("0s");
    expect(formatElapsed(59_999)).toBe("59s");
    expect(formatElapsed(61_000)).toBe("1m 01s");
    expect(formatElapsed(3_725_000)).toBe("1h 02m");
  });

  it("keeps the last non-empty lines", () => {
    expect(outputTail("a\nb\nc\n\n\n", 2)).toEqual(["b", "c"]);
    expect(outputTail("", 3)).toEqual([]);
  });
});

import stringWidth from "string-width";
import { describe, expect, it, vi } from "vitest";
import { BackgroundStatus } from "../../src/ui/components/background-status.js";
import type { BackgroundTask } from "../../src/ui/state/transcript-types.js";
import { plainTheme } from "../../src/ui/theme.js";
import { useTickingTui } from "../support/ticking-tui.js";

const task = (overrides: Partial<BackgroundTask>): BackgroundTask => ({
  id: "agent-1",
  name: "explore-auth",
  type: "explore",
  status: "running",
  startedAt: 0,
  ...overrides,
});

const render = useTickingTui();

describe("background status", () => {
  it("is hidden, with no timer, when nothing runs", async () => {
    const tui = render(<BackgroundStatus tasks={[]} shells={0} theme={plainTheme} width={80} />);
    await tui.flush();
    expect(tui.frame()).toBe("");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("shows each task's name, type, status, elapsed time and latest intent", async () => {
    const tasks = [
      task({ intent: "Reading the auth module" }),
      task({ id: "agent-2", name: "reviewer", type: "code-review", status: "completed" }),
      task({ id: "agent-3", name: "fixer", type: "general-purpose", status: "failed" }),
      task({ id: "agent-4", name: "waiter", type: "task", status: "idle", startedAt: 60_000 }),
    ];
    const tui = render(<BackgroundStatus tasks={tasks} shells={2} theme={plainTheme} width={100} now={65_000} />);
    const frame = await tui.waitForFrame((text) => text.includes("Background"));
    expect(frame).toContain("Background · 1 running · 1 idle · 1 done · 1 failed · 2 shells");
    expect(frame).toContain("● explore-auth (explore) running 1m 05s — Reading the auth module");
    expect(frame).toContain("✓ reviewer (code-review) completed");
    expect(frame).toContain("✗ fixer (general-purpose) failed");
    expect(frame).toContain("○ waiter (task) idle 5s");
    expect(frame).not.toMatch(/completed \d/);
  });

  it("counts cancelled agents apart from failed ones", async () => {
    const tui = render(<BackgroundStatus tasks={[task({ status: "cancelled" })]} shells={0} theme={plainTheme} width={100} now={0} />);
    const frame = await tui.waitForFrame((text) => text.includes("Background"));
    expect(frame).toContain("Background · 1 cancelled");
    expect(frame).toContain("✗ explore-auth (explore) cancelled");
  });

  it("shows a running agent's use against its budget", async () => {
    const use = { turns: 3, tokens: 2_500, budget: { maxTurns: 50, maxDurationMs: 600_000 } };
    const tui = render(<BackgroundStatus tasks={[task({ use, intent: "grep auth" })]} shells={0} theme={plainTheme} width={120} now={65_000} />);
    const frame = await tui.waitForFrame((text) => text.includes("Background"));
    expect(frame).toContain("● explore-auth (explore) running 1m 05s · turns 3/50 · 2.5k tokens · 1m 05s/10m 00s — grep auth");
  });

  it("shows background shells alone", async () => {
    const tui = render(<BackgroundStatus tasks={[]} shells={1} theme={plainTheme} width={80} />);
    expect(await tui.waitForFrame((text) => text !== "")).toBe("Background · 1 shell");
  });

  it("cuts a long intent to the width", async () => {
    const intent = `Investigating ${"the authentication flow ".repeat(10)}`;
    const tui = render(<BackgroundStatus tasks={[task({ intent })]} shells={0} theme={plainTheme} width={60} now={5_000} />);
    const frame = await tui.waitForFrame((text) => text.includes("Investigating"));
    for (const line of frame.split("\n")) expect(stringWidth(line)).toBeLessThanOrEqual(60);
    expect(frame).toContain("…");
  });

  it("ticks the elapsed time only while a task runs", async () => {
    const running = [task({})];
    const tui = render(<BackgroundStatus tasks={running} shells={0} theme={plainTheme} width={80} />);
    await tui.flush();
    expect(vi.getTimerCount()).toBe(1);
    const before = tui.frames().length;
    vi.advanceTimersByTime(1_000);
    await tui.flush();
    expect(tui.frames().length).toBeGreaterThan(before);

    tui.rerender(<BackgroundStatus tasks={[task({ status: "completed" })]} shells={1} theme={plainTheme} width={80} />);
    await tui.flush();
    expect(tui.frame()).toContain("✓ explore-auth (explore) completed");
    expect(vi.getTimerCount()).toBe(0);
    const after = tui.frames().length;
    vi.advanceTimersByTime(5_000);
    await tui.flush();
    expect(tui.frames().length).toBe(after);
  });
});

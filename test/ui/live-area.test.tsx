import { Text } from "ink";
import { describe, expect, it } from "vitest";
import { LiveArea, liveBudget } from "../../src/ui/app/live-area.js";
import { FitBox } from "../../src/ui/components/fit-box.js";
import { permissionOptions } from "../../src/core/permission-options.js";
import { PermissionDialog } from "../../src/ui/components/permission-dialog.js";
import type { TranscriptState } from "../../src/ui/state/transcript-types.js";
import { initialTranscript } from "../../src/ui/state/transcript-types.js";
import { plainTheme } from "../../src/ui/theme.js";
import { renderTui } from "../support/render-tui.js";

const rowsOf = (frame: string) => frame.replace(/\n+$/, "").split("\n").length;

describe("the live area within its rows", () => {
  it("shares the rows between many running tools and the streaming tail", () => {
    const running = Array.from({ length: 16 }, (_, index) => ({
      toolCallId: `t${index}`,
      name: "bash",
      title: `tool ${index}`,
      startedAt: 0,
      output: Array.from({ length: 10 }, (_, line) => `out ${index}.${line}`).join("\n"),
    }));
    const state: TranscriptState = {
      ...initialTranscript({ mode: "interactive", model: "m" }),
      busy: true,
      running,
      live: { messageId: "m", text: Array.from({ length: 40 }, (_, line) => `streamed line ${line}`).join("\n\n") },
    };
    const tui = renderTui(<LiveArea state={state} theme={plainTheme} width={60} maxLines={12} showReasoning={false} />);
    const frame = tui.frame();
    tui.unmount();
    expect(rowsOf(frame)).toBeLessThanOrEqual(12);
    expect(frame).toContain("tool 15");
    expect(frame).toContain("more running");
    expect(frame).toContain("streamed line 39");
  });

  it("never gives more rows than it has", () => {
    for (const rows of [3, 6, 14, 30]) {
      for (const count of [0, 1, 3, 9]) {
        const budget = liveBudget(rows, count, 1);
        const used = 1 + budget.tools * (1 + budget.toolOutput) + (budget.tools < count ? 1 : 0) + budget.answer;
        expect(used).toBeLessThanOrEqual(Math.max(rows, 3 + (count > 0 ? 2 : 0)));
      }
    }
  });

  it("keeps a permission dialog's title, question and choices within its height", () => {
    const command = `echo ${Array.from({ length: 150 }, (_, i) => `w${i}`).join(" ")} > out.txt`;
    const request = {
      kind: "shell",
      intention: "Write a long line",
      fullCommandText: command,
      commands: [{ identifier: "echo", readOnly: false }],
      reason: "writing out.txt needs approval",
    } as never;
    const options = permissionOptions({ commands: ["echo"], writes: [], paths: [], origins: [], tools: [] });
    const tui = renderTui(
      <PermissionDialog request={request} options={options} theme={plainTheme} width={60} queued={0} maxHeight={17} onAnswer={() => undefined} />,
    );
    const frame = tui.frame();
    tui.unmount();
    expect(rowsOf(frame)).toBeLessThanOrEqual(17);
    expect(frame).toContain("Write a long line");
    expect(frame).toContain("Do you want to run this command?");
    expect(frame).toMatch(/1\. Yes/);
    expect(frame).toMatch(/4\. No/);
  });
});

describe("FitBox", () => {
  const lines = (count: number) => Array.from({ length: count }, (_, index) => <Text key={index}>row {index}</Text>);

  it("cuts content taller than its room, and lets shorter content take its own height", async () => {
    const tall = renderTui(<FitBox maxHeight={5}>{lines(20)}</FitBox>);
    await tall.flush();
    expect(rowsOf(tall.frame())).toBeLessThanOrEqual(5);
    expect(tall.frames().every((frame) => rowsOf(frame) <= 5)).toBe(true);
    expect(tall.frame()).toContain("row 0");
    tall.unmount();
    const short = renderTui(<FitBox maxHeight={5}>{lines(3)}</FitBox>);
    const frame = await short.waitForFrame((text) => rowsOf(text) === 3 && text.includes("row 2"));
    expect(frame).not.toContain("row 3");
    short.unmount();
  });
});

import { afterEach, describe, expect, it } from "vitest";
import type { PlanApprovalReply } from "../../../src/protocol/interactions.js";
import { PlanReviewDialog, planChoices } from "../../../src/ui/components/plan-review-dialog.js";
import { plainTheme } from "../../../src/ui/theme.js";
import { renderTui, type TuiHarness } from "../../support/render-tui.js";

let tui: TuiHarness | undefined;
afterEach(() => tui?.unmount());

function open(recommended = "autopilot", options: { maxHeight?: number; summary?: string } = {}) {
  const answers: [PlanApprovalReply, { stop: boolean } | undefined][] = [];
  let shown = 0;
  tui = renderTui(
    <PlanReviewDialog
      summary={options.summary ?? "- add greet.ts\n- test it"}
      recommendedAction={recommended}
      theme={plainTheme}
      width={90}
      {...(options.maxHeight ? { maxHeight: options.maxHeight } : {})}
      onAnswer={(reply, extra) => answers.push([reply, extra])}
      onShowPlan={() => shown++}
    />,
  );
  return { tui, answers, shown: () => shown };
}

describe("the plan review dialog", () => {
  it("shows the title, the summary and the four choices, the recommended one first", async () => {
    const { tui } = open("interactive");
    const frame = await tui.waitForFrame((text) => text.includes("Plan ready for review"));
    expect(frame).toContain("- add greet.ts");
    expect(frame).toMatch(/❯ 1\. Accept plan and continue interactively \(manual approval\) \(recommended\)/);
    expect(frame).toMatch(/2\. Accept plan and continue in autopilot/);
    expect(frame).toMatch(/3\. Exit plan mode without running the plan/);
    expect(frame).toMatch(/4\. Suggest changes/);
    expect(planChoices("autopilot")[0]?.action).toBe("autopilot");
  });

  it.each([
    ["1", { approved: true, selectedAction: "autopilot" }],
    ["2", { approved: true, selectedAction: "interactive" }],
    ["3", { approved: true, selectedAction: "exit_only" }],
  ] as const)("choice %s answers %o", async (digit, reply) => {
    const { tui, answers } = open();
    await tui.flush();
    tui.bus.type(digit);
    await tui.flush();
    expect(answers).toEqual([[reply, undefined]]);
  });

  it("suggest changes: the typed feedback goes back unapproved", async () => {
    const { tui, answers } = open();
    await tui.flush();
    tui.bus.press("up");
    tui.bus.press("enter");
    await tui.waitForFrame((text) => text.includes("What should change?"));
    tui.bus.type("use a class");
    tui.bus.press("enter");
    await tui.flush();
    expect(answers).toEqual([[{ approved: false, feedback: "use a class" }, undefined]]);
  });

  it("the arrows and Enter choose; Esc leaves it unapproved and stops; Ctrl+Y shows the plan", async () => {
    const first = open();
    await first.tui.flush();
    first.tui.bus.press("ctrl+y");
    first.tui.bus.press("down");
    first.tui.bus.press("enter");
    await first.tui.flush();
    expect(first.shown()).toBe(1);
    expect(first.answers).toEqual([[{ approved: true, selectedAction: "interactive" }, undefined]]);
    first.tui.unmount();
    const second = open();
    await second.tui.flush();
    second.tui.bus.press("escape");
    await second.tui.flush();
    expect(second.answers).toEqual([[{ approved: false }, { stop: true }]]);
  });

  it("fits its row budget: a long summary is cut, the choices stay", async () => {
    const summary = Array.from({ length: 40 }, (_, index) => `- step ${index + 1}`).join("\n");
    const { tui } = open("autopilot", { maxHeight: 14, summary });
    const frame = await tui.waitForFrame((text) => text.includes("Suggest changes"));
    expect(frame.split("\n").length).toBeLessThanOrEqual(14);
    expect(frame).toContain("Ctrl+Y shows the whole plan");
    expect(frame).toContain("- step 1");
  });
});

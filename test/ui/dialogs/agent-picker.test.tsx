import { afterEach, describe, expect, it } from "vitest";
import { AgentPicker, type AgentChoice } from "../../../src/ui/components/agent-picker.js";
import { plainTheme } from "../../../src/ui/theme.js";
import { renderTui, type TuiHarness } from "../../support/render-tui.js";

const AGENTS: AgentChoice[] = [
  { name: "reader", source: "user", description: "Reads code. Never writes." },
  { name: "fixer", source: "repo", description: "Fixes bugs" },
  { name: "explore", source: "builtin", description: "Fast search. Long details." },
];

let tui: TuiHarness | undefined;
afterEach(() => tui?.unmount());

function open(current?: string) {
  const selected: (string | null)[] = [];
  let cancelled = 0;
  tui = renderTui(
    <AgentPicker agents={AGENTS} current={current} theme={plainTheme} width={90} onSelect={(name) => selected.push(name)} onCancel={() => (cancelled += 1)} />,
  );
  return { tui, selected, cancelled: () => cancelled };
}

describe("the agent picker", () => {
  it("lists the agents with their source and first sentence, then the default agent, current one highlighted", async () => {
    const { tui, selected } = open("fixer");
    const frame = await tui.waitForFrame((text) => text.includes("Run this session as an agent"));
    expect(frame).toContain("reader user · Reads code.");
    expect(frame).not.toContain("Never writes");
    expect(frame).toContain("❯ fixer ✓ current repo · Fixes bugs");
    expect(frame).toContain("explore built-in · Fast search.");
    expect(frame).toContain("Default agent");
    tui.bus.press("down");
    tui.bus.press("down");
    await tui.flush();
    tui.bus.press("enter");
    await tui.flush();
    expect(selected).toEqual([null]);
  });

  it("starts on the default agent when none is selected, filters by name, and Esc cancels", async () => {
    const { tui, selected, cancelled } = open(undefined);
    expect(await tui.waitForFrame((text) => text.includes("❯ Default agent ✓ current"))).toBeTruthy();
    tui.bus.type("rea");
    const frame = await tui.waitForFrame((text) => text.includes("Filter: rea"));
    expect(frame).not.toContain("fixer");
    tui.bus.press("enter");
    await tui.flush();
    expect(selected).toEqual(["reader"]);
    tui.unmount();
    const second = open(undefined);
    await second.tui.flush();
    second.tui.bus.press("escape");
    await second.tui.flush();
    expect(second.cancelled()).toBe(1);
    expect(cancelled()).toBe(0);
  });
});

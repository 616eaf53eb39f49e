/** The todo panel on its own: glyph, title and agent per todo, the counts, and what a long list keeps in view. */
import { afterEach, describe, expect, it } from "vitest";
import type { TodoItem } from "../../src/protocol/todos.js";
import { planChoices } from "../../src/ui/components/plan-review-dialog.js";
import { TodoPanel } from "../../src/ui/components/todo-panel.js";
import { plainTheme } from "../../src/ui/theme.js";
import { renderTui, type TuiHarness } from "../support/render-tui.js";

const todo = (id: string, status: TodoItem["status"], agentId?: string): TodoItem => ({
  id,
  title: `Title of ${id}`,
  description: "",
  status,
  dependsOn: [],
  ...(agentId ? { agentId } : {}),
});

let tui: TuiHarness | undefined;
afterEach(() => tui?.unmount());

describe("todo panel", () => {
  it("is hidden while there are no todos", async () => {
    tui = renderTui(<TodoPanel todos={[]} theme={plainTheme} width={80} />);
    await tui.flush();
    expect(tui.frame()).toBe("");
  });

  it("shows each todo's status glyph, title and agent, under the counts", async () => {
    const todos = [todo("a", "done", "a-1"), todo("b", "in_progress", "b-1"), todo("c", "pending"), todo("d", "blocked", "d-1")];
    tui = renderTui(<TodoPanel todos={todos} theme={plainTheme} width={80} />);
    await tui.flush();
    expect(tui.frame().split("\n")).toEqual([
      "Todos · 1 done · 1 in progress · 1 blocked · 1 pending",
      "  ✓ Title of a · a-1",
      "  ◐ Title of b · b-1",
      "  ○ Title of c",
      "  ✗ Title of d · d-1 (blocked)",
    ]);
  });

  it("keeps the unfinished todos in view when the list is longer than its rows", async () => {
    const todos = [...Array.from({ length: 6 }, (_, i) => todo(`done-${i}`, "done")), todo("open", "in_progress", "open-1"), todo("next", "pending")];
    tui = renderTui(<TodoPanel todos={todos} theme={plainTheme} width={80} maxRows={4} />);
    await tui.flush();
    const lines = tui.frame().split("\n");
    expect(lines).toHaveLength(5);
    expect(lines).toContain("  ◐ Title of open · open-1");
    expect(lines).toContain("  ○ Title of next");
    expect(lines.at(-1)).toBe("  … 5 more");
  });
});

describe("the plan review's fleet choice", () => {
  it("is listed only when the request offers it, after plain autopilot unless recommended", () => {
    expect(planChoices("autopilot").map((choice) => choice.action)).toEqual(["autopilot", "interactive", "exit_only", undefined]);
    const offered = ["autopilot", "autopilot_fleet", "interactive", "exit_only"];
    expect(planChoices("autopilot", offered).map((choice) => choice.action)).toEqual(["autopilot", "autopilot_fleet", "interactive", "exit_only", undefined]);
    const fleetFirst = planChoices("autopilot_fleet", offered);
    expect(fleetFirst[0]).toEqual({ label: "Accept plan and continue in autopilot + /fleet (parallel agents) (recommended)", action: "autopilot_fleet" });
  });
});

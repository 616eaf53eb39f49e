/** How the TUI shows compaction and /context: the reducer's items, the grid, and the whole app over the engine. */
import { afterEach, describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/protocol/events/index.js";
import { allocateCells } from "../../src/ui/components/context-grid.js";
import { historyItemLines } from "../../src/ui/components/history-item.js";
import { reduceTranscript } from "../../src/ui/state/reduce-transcript.js";
import { initialTranscript } from "../../src/ui/state/transcript-types.js";
import { plainTheme } from "../../src/ui/theme.js";
import { renderApp } from "../support/app-harness.js";
import type { TuiHarness } from "../support/render-tui.js";
import { text } from "../support/scripted-server.js";
import { TestSessionHost } from "../support/tui-host.js";

let counter = 0;
const event = (type: string, data: Record<string, unknown>, agentId?: string): SessionEvent =>
  ({ id: `e${++counter}`, timestamp: new Date(0).toISOString(), parentId: null, type, data, ...(agentId ? { agentId } : {}) }) as unknown as SessionEvent;
const reduce = (...events: SessionEvent[]) =>
  events.reduce((state, next) => reduceTranscript(state, next, 0), initialTranscript({ mode: "interactive", model: "m" }));

describe("compaction in the transcript", () => {
  it("shows a spinner while compacting, then one line", () => {
    const compacting = reduce(event("session.compaction_start", { trigger: "manual" }));
    expect(compacting.compacting).toBe(true);
    const done = reduceTranscript(
      compacting,
      event("session.compaction_complete", {
        success: true,
        trigger: "threshold",
        messagesRemoved: 12,
        preCompactionTokens: 45_000,
        postCompactionTokens: 8_100,
        checkpointNumber: 1,
        checkpointPath: "/s/checkpoints/001-x.md",
      }),
      0,
    );
    expect(done.compacting).toBe(false);
    expect(done.items).toEqual([
      expect.objectContaining({
        kind: "notice",
        level: "info",
        text: "Conversation compacted as the context filled up: 12 messages summarised (45k → 8.1k tokens) · checkpoint 1: /s/checkpoints/001-x.md",
      }),
    ]);
  });

  it("says a failed compaction changed nothing", () => {
    const state = reduce(event("session.compaction_start", {}), event("session.compaction_complete", { success: false, error: "endpoint down" }));
    expect(state.items[0]).toMatchObject({ kind: "notice", level: "warning", text: "Compaction failed, the conversation is unchanged: endpoint down" });
  });

  it("leaves a subagent's compaction out of the main transcript", () => {
    expect(reduce(event("session.compaction_complete", { success: true, messagesRemoved: 3 }, "agent-1")).items).toHaveLength(0);
  });
});

describe("/context's grid", () => {
  const usage = {
    tokenLimit: 100_000,
    currentTokens: 30_000,
    messagesLength: 7,
    systemTokens: 5_000,
    toolsTokens: 4_000,
    mcpToolsTokens: 1_000,
    messagesTokens: 20_000,
  };

  it("becomes a context item from session.usage_info and the report", () => {
    const state = reduce(
      event("session.usage_info", { ...usage, toolDefinitionsTokens: 5_000, conversationTokens: 20_000 }),
      event("session.info", { infoType: "context", message: "Context: 30k/100k\n  Compacts automatically at 80k (80.0%); /compact does it now." }),
    );
    expect(state.usage).toEqual({ currentTokens: 30_000, tokenLimit: 100_000 });
    expect(state.items[0]).toMatchObject({ kind: "context", usage, footnote: "Compacts automatically at 80k (80.0%); /compact does it now." });
  });

  it("gives every part its share of 50 cells, at least one when it has any", () => {
    expect(allocateCells([5_000, 4_000, 1_000, 20_000, 70_000], 100_000, 50)).toEqual([2, 2, 1, 10, 35]);
    expect(allocateCells([100, 0, 0, 50, 99_850], 100_000, 50)).toEqual([1, 0, 0, 1, 48]);
    expect(allocateCells([1, 2, 3], 0, 50)).toEqual([0, 0, 0]);
  });

  it("draws the grid with its legend beside it, or below it on a narrow terminal", () => {
    const item = { kind: "context" as const, id: "c", usage, model: "gpt-x", footnote: "Compacts automatically at 80k." };
    const wide = historyItemLines(item, 100, plainTheme, false);
    expect(wide[0]).toBe("Context · gpt-x · 30k/100k tokens (30.0%)");
    expect(wide[1]).toBe("◆ ◆ ■ ■ ▲ ● ● ● ● ●   ◆ System prompt   5.0k   5.0%");
    expect(wide[4]).toContain("● Messages (7)     20k  20.0%");
    expect(wide[5]).toBe("· · · · · · · · · ·   · Free             70k  70.0%");
    expect(wide.at(-1)).toBe("Compacts automatically at 80k.");
    const narrow = historyItemLines(item, 30, plainTheme, false);
    expect(narrow).toHaveLength(1 + 5 + 5 + 1);
    expect(narrow.every((line) => line.length <= 30)).toBe(true);
  });

  it("gives memory's board its own row when memory is on, the legend running past the grid's five rows", () => {
    const state = reduce(
      event("session.usage_info", { ...usage, toolDefinitionsTokens: 5_000, conversationTokens: 20_000, contextBoardTokens: 1_200 }),
      event("session.info", { infoType: "context", message: "Context: 30k/100k" }),
    );
    const item = state.items[0];
    expect(item).toMatchObject({ kind: "context", usage: { contextBoardTokens: 1_200 } });
    const wide = historyItemLines(item as Parameters<typeof historyItemLines>[0], 100, plainTheme, false);
    expect(wide[2]).toContain("◇ Memory (board)   1.2k   1.2%");
    expect(wide[6]).toMatch(/^\s+· Free/);
  });
});

let host: TestSessionHost | undefined;
let tui: TuiHarness | undefined;
afterEach(async () => {
  tui?.unmount();
  tui = undefined;
  await host?.close();
  host = undefined;
});

describe("the app", () => {
  it("answers /context with the grid and /compact with one line", async () => {
    host = await TestSessionHost.start();
    tui = await renderApp(host);
    host.server.enqueue(text("first answer"), text("second answer"), text("<overview>Greeting.</overview><checkpoint_title>Hello</checkpoint_title>"));
    for (const [prompt, answer] of [
      ["hello", "first answer"],
      ["again", "second answer"],
    ] as const) {
      tui.bus.type(prompt);
      tui.bus.press("enter");
      await tui.waitForFrame((frame) => frame.includes(answer));
    }
    tui.bus.type("/context");
    tui.bus.press("enter");
    const grid = await tui.waitForFrame((frame) => frame.includes("◆ System prompt"));
    expect(grid).toMatch(/Context · scripted-model · [\d.]+k\/128k tokens/);
    expect(grid).toContain("● Messages (4)");
    expect(host.server.completionRequests).toHaveLength(2);
    tui.bus.type("/compact");
    tui.bus.press("enter");
    const compacted = await tui.waitForFrame((frame) => frame.includes("Conversation compacted"));
    expect(compacted).toContain("4 messages summarised");
    expect(compacted).toContain("checkpoint 1");
    // Again at once: nothing new to summarise, and the TUI says so.
    tui.bus.type("/compact");
    tui.bus.press("enter");
    await tui.waitForFrame((frame) => frame.includes("Too little to gain"));
    expect(host.server.completionRequests).toHaveLength(3);
  });
});

describe("a resumed log that ended mid-compaction", () => {
  it("shows no spinner", async () => {
    const { transcriptFromLog } = await import("../../src/ui/state/history-from-log.js");
    const state = transcriptFromLog([event("session.compaction_start", { trigger: "threshold" })], initialTranscript({ mode: "interactive", model: "m" }));
    expect(state.compacting).toBe(false);
  });
});

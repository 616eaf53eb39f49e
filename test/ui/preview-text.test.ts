/**
 * previewText renders a resumed session's last exchange from its last item back, only as far as the lines it
 * shows: the same lines as rendering every item and keeping the last ones, whatever the number of lines.
 */
import { describe, expect, it } from "vitest";
import type { SessionEvent } from "../../src/protocol/events/index.js";
import { historyItemLines } from "../../src/ui/components/history-item-lines.js";
import { previewText } from "../../src/ui/print-past.js";
import { transcriptFromLog } from "../../src/ui/state/history-from-log.js";
import { initialTranscript, type TranscriptItem } from "../../src/ui/state/transcript-types.js";
import { plainTheme } from "../../src/ui/theme.js";

let counter = 0;
const event = (type: string, data: Record<string, unknown>): SessionEvent =>
  ({ id: `e${++counter}`, timestamp: new Date(0).toISOString(), parentId: null, type, data }) as unknown as SessionEvent;

const output = Array.from({ length: 12 }, (_, line) => `${line + 1}. export const handler${line} = () => retry();`).join("\n");
const events = [
  event("user.message", { content: "what does the handler do?" }),
  event("assistant.turn_start", { turnId: "1" }),
  event("assistant.reasoning", { reasoningId: "r1", content: "Look at the file first." }),
  event("assistant.message", {
    messageId: "m1",
    content: "",
    toolRequests: [{ toolCallId: "c1", name: "view", arguments: { path: "/w/a.ts" }, type: "function" }],
  }),
  event("tool.execution_start", { toolCallId: "c1", toolName: "view", arguments: { path: "/w/a.ts" } }),
  event("tool.execution_complete", { toolCallId: "c1", success: true, result: { content: output, detailedContent: output } }),
  event("assistant.message", { messageId: "m2", content: "It **retries** twice.\n\n- once after 500 ms\n- then after 1 s" }),
  event("assistant.turn_end", { turnId: "1" }),
];

/** Every item rendered, then the last lines kept: what previewText gave before it stopped early. */
function everyItem(items: readonly TranscriptItem[], width: number, maxLines: number): string {
  const text = items
    .map((item) => `${historyItemLines(item, width, plainTheme, false).join("\n")}\n${item.kind === "reasoning" ? "" : "\n"}`)
    .join("")
    .replace(/\n$/, "")
    .split("\n");
  return text.slice(-Math.max(1, maxLines)).join("\n");
}

describe("the preview of a resumed session's last exchange", () => {
  const items = transcriptFromLog(events, initialTranscript({ mode: "interactive", model: "m" })).items;

  it("has items of several kinds to render", () => {
    expect(new Set(items.map((item) => item.kind)).size).toBeGreaterThanOrEqual(3);
  });

  it.each([1, 2, 3, 5, 8, 13, 20, 40, 200])("shows the same last %i lines as rendering every item", (maxLines) => {
    for (const width of [40, 100]) expect(previewText(items, width, plainTheme, maxLines)).toBe(everyItem(items, width, maxLines));
  });
});

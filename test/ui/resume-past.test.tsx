/** A resumed session's past: folded to its tail, and printed exactly as <Static> would print it. */
import { Box, Static } from "ink";
import { render } from "ink-testing-library";
import { afterEach, describe, expect, it } from "vitest";
import { buildTranscript } from "../../src/core/session-admin/transcript.js";
import { transcriptHtml, transcriptMarkdown } from "../../src/core/session-admin/transcript-render.js";
import type { SessionEvent } from "../../src/protocol/events/index.js";
import { HistoryItem } from "../../src/ui/components/history-item.js";
import { preloadMarkdown } from "../../src/ui/markdown/render-markdown.js";
import { renderPast } from "../../src/ui/print-past.js";
import { reduceTranscript } from "../../src/ui/state/reduce-transcript.js";
import { transcriptFromLog } from "../../src/ui/state/history-from-log.js";
import { initialTranscript, type TranscriptItem } from "../../src/ui/state/transcript-types.js";
import { plainTheme } from "../../src/ui/theme.js";
import { readEventLog } from "../../src/session/event-log-reader.js";
import { startHarness, type Harness } from "../support/engine-harness.js";
import { text } from "../support/scripted-server.js";

let counter = 0;
const event = (type: string, data: Record<string, unknown>): SessionEvent =>
  ({ id: `e${++counter}`, timestamp: new Date(0).toISOString(), parentId: null, type, data }) as unknown as SessionEvent;

/** A log of `exchanges` prompts, each answered after a tool call (and, every third, with reasoning). */
function longLog(exchanges: number): SessionEvent[] {
  const events: SessionEvent[] = [];
  for (let n = 1; n <= exchanges; n++) {
    events.push(event("user.message", { content: `question ${n}` }));
    events.push(event("assistant.turn_start", { turnId: String(n) }));
    if (n % 3 === 0) events.push(event("assistant.reasoning", { reasoningId: `r${n}`, content: `thinking about ${n}` }));
    events.push(event("tool.execution_start", { toolCallId: `t${n}`, toolName: "view", arguments: { path: `f${n}.ts` } }));
    events.push(event("tool.execution_complete", { toolCallId: `t${n}`, success: true, result: { content: `contents ${n}` } }));
    events.push(event("assistant.message", { messageId: `m${n}`, content: `**Answer ${n}**\n\n- a point\n- another\n\n\`\`\`ts\nconst x = ${n};\n\`\`\`` }));
    events.push(event("assistant.turn_end", { turnId: String(n) }));
  }
  return events;
}

const initial = () => initialTranscript({ mode: "interactive", model: "m" });

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("a resumed session's past", () => {
  it("folds only the tail of a long log, with the same items and count of hidden ones as a full fold", () => {
    const events = longLog(2500);
    const full = events.reduce((state, next) => reduceTranscript(state, next, 0), initial());
    const tail = transcriptFromLog(events, initial(), 400);
    expect(tail.items).toHaveLength(401);
    expect(tail.items.slice(1)).toEqual(full.items.slice(-400));
    const notice = tail.items[0];
    expect(notice?.kind === "notice" && notice.text).toContain(`${full.items.length - 400} earlier items`);
  });

  it("a short log is shown whole, without a notice", () => {
    const events = longLog(5);
    const full = events.reduce((state, next) => reduceTranscript(state, next, 0), initial());
    expect(transcriptFromLog(events, initial(), 400).items).toEqual(full.items);
  });

  it("shows a command the person typed (/review), not its template and not nothing", () => {
    const events = [
      event("user.message", { content: "The user asked for a code review…", source: "command:review" }),
      event("assistant.message", { messageId: "m1", content: "No significant issues found." }),
    ];
    const items = transcriptFromLog(events, initial(), 400).items;
    expect(items.map((item) => item.kind === "user" && item.text)).toEqual(["/review", false]);
  });

  it("shows a command's prompt from a real session's log as the whole line typed, also in /share", async () => {
    harness = await startHarness();
    harness.server.enqueue(text("Tokens expire after an hour."));
    const typed = "/research how auth tokens expire";
    const routed = await harness.session.dispatch({ type: "input", text: typed });
    if (routed.kind === "prompt") await routed.run;
    const { events } = readEventLog(harness.store.eventsFileOf(harness.session.id));
    const sent = events.find((logged) => logged.type === "user.message");
    expect(sent?.type === "user.message" && sent.data).toMatchObject({ source: "command:research", typedText: typed });
    const items = transcriptFromLog(events, initial(), 400).items.filter((item) => item.kind === "user" || item.kind === "assistant");
    expect(items.map((item) => item.kind === "user" && item.text)).toEqual([typed, false]);
    const shared = buildTranscript(events, { sessionId: harness.session.id });
    expect(shared.title).toBe(typed);
    expect(transcriptMarkdown(shared)).toContain(`\`${typed}\``);
    expect(transcriptHtml(shared)).toContain(`<div class="text">${typed}</div>`);
  });

  it("is printed exactly as <Static> prints the same items", async () => {
    await preloadMarkdown();
    const items: TranscriptItem[] = transcriptFromLog(longLog(12), initial(), 400).items;
    const width = 60;
    const view = render(
      <Static items={items}>
        {(item) => (
          <Box key={item.id} marginBottom={item.kind === "reasoning" ? 0 : 1}>
            <HistoryItem item={item} width={width} theme={plainTheme} showReasoning={false} />
          </Box>
        )}
      </Static>,
    );
    const viaStatic = view.lastFrame() ?? "";
    view.unmount();
    const printed = await renderPast(items, width, plainTheme);
    expect(printed.trimEnd()).toBe(viaStatic.trimEnd());
    expect(printed).toContain("Answer 12");
  });
});

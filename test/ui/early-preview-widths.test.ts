/**
 * A resumed session's early preview (cli/interactive.ts, before Ink loads) is rendered before string-width
 * (src/ui/markdown/wrap.ts) and marked are loaded: printable ASCII without string-width, plain Markdown without
 * marked (src/ui/markdown/simple-lexer.ts), anything else after loading what it needs, and either way the same
 * lines as with both loaded from the start (what Ink's first paint draws over the preview).
 */
import { describe, expect, it, vi } from "vitest";
import type { SessionEvent } from "../../src/protocol/events/index.js";
import { previewOfTail } from "../../src/ui/print-past.js";
import { plainTheme } from "../../src/ui/theme.js";

let counter = 0;
const event = (type: string, data: Record<string, unknown>): SessionEvent =>
  ({ id: `e${++counter}`, timestamp: new Date(0).toISOString(), parentId: null, type, data }) as unknown as SessionEvent;

const exchange = (answer: string): SessionEvent[] => [
  event("user.message", { content: "what changed?" }),
  event("assistant.turn_start", { turnId: "1" }),
  event("assistant.message", { messageId: "m1", content: answer }),
  event("assistant.turn_end", { turnId: "1" }),
];

const initial = { mode: "interactive", model: "m" } as const;

/** Fresh copies of the modules, as the early frame has them: neither marked nor string-width loaded. */
async function beforeWidths() {
  vi.resetModules();
  const [printPast, markdown, wrap] = await Promise.all([
    import("../../src/ui/print-past.js"),
    import("../../src/ui/markdown/render-markdown.js"),
    import("../../src/ui/markdown/wrap.js"),
  ]);
  // Outside the early preview, text is shown plain until marked is loaded: "*a*" keeps its stars until then.
  const markedLoaded = () => markdown.renderMarkdown("*a*", { width: 10, theme: plainTheme }) === "a";
  return { ...printPast, ...wrap, markedLoaded };
}

describe("the early preview of a resumed session", () => {
  it.each([
    ["printable ASCII", "**Done**: the `retry` helper waits **twice**.\n\n- one\n- two\n\n```ts\nconst a = 1;\n```", false, false],
    ["printable ASCII beyond the simple lexer", "**Done**: the `retry` helper waits *twice*, see [the docs](https://example.com).", false, true],
    ["accented text", "**Done**: café, naïve résumé — “quoted” über straße.\n\n- élan\n\n```ts\nconst café = 1;\n```", true, false],
    ["accented text beyond the simple lexer", "**Café** naïve résumé — “quoted” über straße.\n\n> a quote", true, true],
    ["wide characters", "日本語の説明です。**重要**: 再試行は二回。", true, true],
  ])("with %s is the preview rendered with string-width and marked loaded", async (_name, answer, needsWidths, needsMarked) => {
    const tail = exchange(answer);
    const fresh = await beforeWidths();
    expect(() => fresh.displayWidth("é")).toThrow(fresh.DisplayWidthsNotLoadedError);
    expect(fresh.markedLoaded()).toBe(false);
    const early = await fresh.earlyPreviewOfTail(tail, initial, 40, 30, plainTheme);
    expect(early).toBe(previewOfTail(tail, initial, 40, 30, plainTheme));
    expect(early).toContain("what changed?");
    // string-width and marked were loaded only when the text needed them.
    if (needsWidths) expect(fresh.displayWidth("é")).toBe(1);
    else expect(() => fresh.displayWidth("é")).toThrow(fresh.DisplayWidthsNotLoadedError);
    expect(fresh.markedLoaded()).toBe(needsMarked);
  });
});

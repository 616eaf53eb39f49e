/**
 * A resumed session's early preview (cli/interactive.ts, before Ink loads) is rendered before string-width is
 * loaded (src/ui/markdown/wrap.ts): printable ASCII without it, anything else after loading it, and either way
 * the same lines as with it loaded from the start (what Ink's first paint draws over the preview).
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

/** Fresh copies of the modules, as the early frame has them: the lexer loaded, string-width not. */
async function beforeWidths() {
  vi.resetModules();
  const [printPast, markdown, wrap] = await Promise.all([
    import("../../src/ui/print-past.js"),
    import("../../src/ui/markdown/render-markdown.js"),
    import("../../src/ui/markdown/wrap.js"),
  ]);
  await markdown.preloadMarkdown({ displayWidths: false });
  return { ...printPast, ...wrap };
}

describe("the early preview of a resumed session", () => {
  it.each([
    ["printable ASCII", "**Done**: the `retry` helper waits *twice*.\n\n- one\n- two\n\n```ts\nconst a = 1;\n```", false],
    ["accented text", "**Café** naïve résumé — “quoted” über straße.\n\n- élan\n\n```ts\nconst café = 1;\n```", true],
    ["wide characters", "日本語の説明です。**重要**: 再試行は二回。", true],
  ])("with %s is the preview rendered with string-width loaded", async (_name, answer, needsWidths) => {
    const tail = exchange(answer);
    const fresh = await beforeWidths();
    expect(() => fresh.displayWidth("é")).toThrow(fresh.DisplayWidthsNotLoadedError);
    const early = await fresh.earlyPreviewOfTail(tail, initial, 40, 30, plainTheme);
    expect(early).toBe(previewOfTail(tail, initial, 40, 30, plainTheme));
    expect(early).toContain("what changed?");
    // string-width was loaded only when the text needed it.
    if (needsWidths) expect(fresh.displayWidth("é")).toBe(1);
    else expect(() => fresh.displayWidth("é")).toThrow(fresh.DisplayWidthsNotLoadedError);
  });
});

import stringWidth from "string-width";
import { afterEach, describe, expect, it } from "vitest";
import { key } from "../../../src/ui/terminal/keys.js";
import { lines, renderComposer, type ComposerHarness } from "./composer-harness.js";

let harness: ComposerHarness | undefined;
afterEach(() => harness?.tui.unmount());

async function setup(...args: Parameters<typeof renderComposer>) {
  harness = await renderComposer(...args);
  return harness;
}

const hasRow = (h: ComposerHarness, row: string) => h.box().some((line) => line.trimEnd() === row);

describe("composer: typing and submitting", () => {
  it("echoes typing, submits on Enter, clears, and records the prompt in the history", async () => {
    const h = await setup();
    expect(h.tui.frame()).toContain("Ask anything");
    h.tui.bus.type("hello world");
    await h.tui.waitForFrame(() => hasRow(h, "› hello world"));
    h.tui.bus.press("enter");
    expect(h.submissions).toEqual([{ text: "hello world", attachments: [] }]);
    expect(h.history.entries).toEqual(["hello world"]);
    await h.tui.waitForFrame((frame) => frame.includes("Ask anything"));
    h.tui.bus.press("enter");
    h.tui.bus.type("   ");
    h.tui.bus.press("enter");
    expect(h.submissions).toHaveLength(1); // empty and blank prompts are not sent
  });

  it("makes a newline with \\ then Enter, Shift+Enter, Ctrl+J (both forms) and Alt+Enter", async () => {
    const h = await setup();
    h.tui.bus.type("one\\");
    h.tui.bus.press("enter");
    h.tui.bus.type("two");
    h.tui.bus.press("shift+enter");
    h.tui.bus.type("three");
    h.tui.bus.dispatch({ type: "key", key: key("enter", { ctrl: true, sequence: "\n" }) }); // Ctrl+J from the parser
    h.tui.bus.type("four");
    h.tui.bus.press("ctrl+j");
    h.tui.bus.type("five");
    h.tui.bus.press("meta+enter");
    h.tui.bus.type("six");
    expect(h.submissions).toHaveLength(0);
    await h.tui.waitForFrame(() => hasRow(h, "  six"));
    expect(h.box().map((line) => line.trimEnd())).toEqual(["› one", "  two", "  three", "  four", "  five", "  six"]);
    h.tui.bus.press("enter");
    expect(h.submissions[0]?.text).toBe("one\ntwo\nthree\nfour\nfive\nsix");
  });

  it("edits with ctrl+a/e/w/u/k, alt+arrows, backspace and delete", async () => {
    const h = await setup();
    h.tui.bus.type("git commit message");
    h.tui.bus.press("ctrl+w"); // "git commit "
    h.tui.bus.press("ctrl+a");
    h.tui.bus.type(">");
    h.tui.bus.press("ctrl+e");
    h.tui.bus.type("-m");
    h.tui.bus.press("meta+left"); // before "m"
    h.tui.bus.press("meta+left"); // before "commit"
    h.tui.bus.press("backspace"); // joins "git" and "commit"
    h.tui.bus.press("delete"); // removes "c"
    h.tui.bus.press("meta+right"); // after "ommit"
    h.tui.bus.press("ctrl+k");
    await h.tui.waitForFrame(() => hasRow(h, "› >gitommit"));
    h.tui.bus.press("left");
    h.tui.bus.press("ctrl+u");
    await h.tui.waitForFrame(() => hasRow(h, "› t"));
    h.tui.bus.press("enter");
    expect(h.submissions[0]?.text).toBe("t");
  });

  it("Ctrl+C clears the prompt and is consumed; on an empty prompt it reaches the app", async () => {
    const h = await setup();
    h.tui.bus.type("draft");
    h.tui.bus.press("ctrl+c");
    expect(h.passedOn).toHaveLength(0);
    await h.tui.waitForFrame((frame) => frame.includes("Ask anything"));
    h.tui.bus.press("ctrl+c");
    expect(h.passedOn.map((item) => `${item.ctrl ? "ctrl+" : ""}${item.char}`)).toEqual(["ctrl+c"]);
    expect(h.submissions).toHaveLength(0);
  });

  it("Ctrl+D deletes under the cursor when there is text and reaches the app on an empty prompt", async () => {
    const h = await setup();
    h.tui.bus.type("ab");
    h.tui.bus.press("left");
    h.tui.bus.press("ctrl+d");
    await h.tui.waitForFrame(() => hasRow(h, "› a"));
    expect(h.passedOn).toHaveLength(0);
    h.tui.bus.press("ctrl+u");
    h.tui.bus.press("ctrl+d");
    expect(h.passedOn.map((item) => item.char)).toEqual(["d"]);
  });

  it("? on an empty prompt opens quick help instead of typing; elsewhere it is a character", async () => {
    const h = await setup();
    h.tui.bus.type("?");
    expect(h.quickHelps).toHaveLength(1);
    h.tui.bus.type("why?");
    await h.tui.waitForFrame(() => hasRow(h, "› why?"));
    expect(h.quickHelps).toHaveLength(1);
  });

  it("leaves Esc, Shift+Tab and Tab to the app when no popup is open", async () => {
    const h = await setup();
    h.tui.bus.type("text");
    h.tui.bus.press("escape");
    h.tui.bus.press("shift+tab");
    h.tui.bus.press("tab");
    expect(h.passedOn.map((item) => `${item.shift ? "shift+" : ""}${item.name}`)).toEqual(["escape", "shift+tab", "tab"]);
  });
});

describe("composer: history", () => {
  it("walks the history with ↑/↓ and comes back to the draft", async () => {
    const h = await setup({}, ["first", "second"]);
    h.tui.bus.type("draft");
    h.tui.bus.press("up");
    await h.tui.waitForFrame(() => hasRow(h, "› second"));
    h.tui.bus.press("up");
    await h.tui.waitForFrame(() => hasRow(h, "› first"));
    h.tui.bus.press("up"); // the oldest stays
    h.tui.bus.press("down");
    await h.tui.waitForFrame(() => hasRow(h, "› second"));
    h.tui.bus.press("down");
    await h.tui.waitForFrame(() => hasRow(h, "› draft"));
    h.tui.bus.press("up");
    h.tui.bus.press("enter");
    expect(h.submissions[0]?.text).toBe("second");
  });

  it("moves between lines of a multi-line prompt before walking the history", async () => {
    const h = await setup({}, ["old"]);
    h.tui.bus.type("l1");
    h.tui.bus.press("shift+enter");
    h.tui.bus.type("line2");
    h.tui.bus.press("up"); // to the first line, column kept as far as it goes
    h.tui.bus.type("X");
    await h.tui.waitForFrame(() => hasRow(h, "› l1X"));
    h.tui.bus.press("up");
    await h.tui.waitForFrame(() => hasRow(h, "› old"));
    h.tui.bus.press("down");
    await h.tui.waitForFrame(() => hasRow(h, "› l1X") && hasRow(h, "  line2"));
  });

  it("Ctrl+R searches backwards, Ctrl+R again goes older, Enter accepts without sending", async () => {
    const h = await setup({}, ["git status", "npm test", "git commit -m fix"]);
    h.tui.bus.press("ctrl+r");
    h.tui.bus.type("git");
    await h.tui.waitForFrame((frame) => frame.includes("(reverse-i-search)`git': git commit -m fix"));
    h.tui.bus.press("ctrl+r");
    await h.tui.waitForFrame((frame) => frame.includes("(reverse-i-search)`git': git status"));
    h.tui.bus.press("enter");
    await h.tui.waitForFrame(() => hasRow(h, "› git status"));
    expect(h.submissions).toHaveLength(0);
    h.tui.bus.press("enter");
    expect(h.submissions[0]?.text).toBe("git status");
  });

  it("Ctrl+R shows a failing search and Esc restores what was typed", async () => {
    const h = await setup({}, ["npm test"]);
    h.tui.bus.type("mine");
    h.tui.bus.press("ctrl+r");
    h.tui.bus.type("zzz");
    await h.tui.waitForFrame((frame) => frame.includes("(failed reverse-i-search)`zzz'"));
    h.tui.bus.press("escape");
    await h.tui.waitForFrame(() => hasRow(h, "› mine"));
    expect(h.passedOn).toHaveLength(0);
  });
});

describe("composer: pastes, inject, hints and layout", () => {
  it("shows a paste of 50 lines as a chip and sends the full text", async () => {
    const h = await setup();
    const pasted = `${lines(50)}\n`;
    h.tui.bus.type("check ");
    h.tui.bus.paste(pasted);
    h.tui.bus.type(" please");
    await h.tui.waitForFrame(() => hasRow(h, "› check [Paste #1 – 50 lines] please"));
    expect(h.tui.frame()).not.toContain("line 2");
    h.tui.bus.press("enter");
    expect(h.submissions[0]?.text).toBe(`check ${pasted} please`);
  });

  it("inserts a short paste as text without submitting, even with newlines", async () => {
    const h = await setup();
    h.tui.bus.paste("a\r\nb\n");
    await h.tui.waitForFrame(() => hasRow(h, "› a") && hasRow(h, "  b"));
    expect(h.submissions).toHaveLength(0);
  });

  it("replaces the content when the inject nonce changes, and ↑ on empty asks the app first", async () => {
    let ups = 0;
    const h = await setup({ onEmptyUp: () => ++ups > 0 }, ["from history"]);
    h.tui.bus.press("up");
    expect(ups).toBe(1);
    h.rerender({ inject: { text: "queued one", nonce: 1 } });
    await h.tui.waitForFrame(() => hasRow(h, "› queued one"));
    h.tui.bus.type("!");
    await h.tui.waitForFrame(() => hasRow(h, "› queued one!"));
    h.rerender({ inject: { text: "queued one", nonce: 1 }, busy: true });
    await h.tui.waitForFrame((frame) => frame.includes("Agent is working · Enter queues · Esc interrupts"));
    expect(hasRow(h, "› queued one!")).toBe(true); // same nonce: no replacement
    h.rerender({ inject: { text: "other", nonce: 2 } });
    await h.tui.waitForFrame(() => hasRow(h, "› other"));
  });

  it("marks a shell command", async () => {
    const h = await setup();
    h.tui.bus.type("!ls -la");
    await h.tui.waitForFrame((frame) => hasRow(h, "› !ls -la") && frame.includes("Shell command"));
    h.tui.bus.press("enter");
    expect(h.submissions[0]?.text).toBe("!ls -la");
  });

  it("wraps long and wide text within the width", async () => {
    const h = await setup({ width: 24 });
    h.tui.bus.type("the quick brown fox jumps over the lazy dog ");
    h.tui.bus.type("你好世界你好世界你好世界👍👍👍");
    await h.tui.waitForFrame(() => h.box().join("").includes("👍"));
    const rows = h.box();
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) expect(stringWidth(row)).toBeLessThanOrEqual(24);
    expect(rows.map((row) => row.trimEnd())[0]).toBe("› the quick brown fox");
    expect(rows.join("").replace(/ /g, "")).toContain("你好世界你好世界");
  });

  it("caps a long prompt at 15 rows with a count of the hidden lines", async () => {
    const h = await setup();
    h.rerender({ inject: { text: lines(40), nonce: 1 } });
    await h.tui.waitForFrame((frame) => frame.includes("… 25 more lines above"));
    const rows = h.box();
    expect(rows).toHaveLength(16);
    expect(rows[rows.length - 1]?.trimEnd()).toBe("  line 40");
    for (let index = 0; index < 14; index++) h.tui.bus.press("up");
    h.tui.bus.press("ctrl+a");
    h.tui.bus.press("up");
    await h.tui.waitForFrame((frame) => frame.includes("… 24 more lines above") && frame.includes("… 1 more line below"));
  });
});

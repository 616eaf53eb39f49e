import { describe, expect, it } from "vitest";
import {
  backspace,
  deleteForward,
  deleteToLineEnd,
  deleteToLineStart,
  deleteWordBack,
  editorFromText,
  emptyEditor,
  expand,
  insertNewline,
  insertPaste,
  insertText,
  moveDown,
  moveLeft,
  moveLineEnd,
  moveLineStart,
  moveRight,
  moveUp,
  moveWordLeft,
  moveWordRight,
  type EditorState,
} from "../../../src/ui/components/composer/editor-state.js";
import { cpuTimer } from "../../support/cpu-time.js";
import { countLines } from "../../../src/ui/components/composer/paste-chips.js";

const at = (text: string, cursor: number): EditorState => editorFromText(text, cursor);
/** Renders the state as text with a | at the cursor. */
const show = (state: EditorState) => `${state.text.slice(0, state.cursor)}|${state.text.slice(state.cursor)}`;
const lines = (count: number, prefix = "line") => Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}`).join("\n");

describe("editor state: typing and deleting", () => {
  it("inserts at the cursor and moves it", () => {
    let state = insertText(emptyEditor, "helo");
    state = insertText(moveLeft(state), "l");
    expect(show(state)).toBe("hell|o");
    expect(show(insertNewline(state))).toBe("hell\n|o");
  });

  it("backspace and delete remove one character, and do nothing at the edges", () => {
    expect(show(backspace(at("abc", 2)))).toBe("a|c");
    expect(show(deleteForward(at("abc", 1)))).toBe("a|c");
    expect(show(backspace(at("abc", 0)))).toBe("|abc");
    expect(show(deleteForward(at("abc", 3)))).toBe("abc|");
  });

  it("ctrl+u deletes to the line start, ctrl+k to the line end, joining lines at the edges", () => {
    expect(show(deleteToLineStart(at("one\ntwo three", 7)))).toBe("one\n| three");
    expect(show(deleteToLineStart(at("one\ntwo", 4)))).toBe("one|two");
    expect(show(deleteToLineEnd(at("one two\nthree", 3)))).toBe("one|\nthree");
    expect(show(deleteToLineEnd(at("one\nthree", 3)))).toBe("one|three");
    expect(show(deleteToLineEnd(at("one", 3)))).toBe("one|");
  });

  it("ctrl+w deletes the word before the cursor and the spaces after it", () => {
    expect(show(deleteWordBack(at("git commit -m  ", 15)))).toBe("git commit -|");
    expect(show(deleteWordBack(at("hello world", 11)))).toBe("hello |");
    expect(show(deleteWordBack(at("hello world", 8)))).toBe("hello |rld");
  });
});

describe("editor state: moving", () => {
  it("moves by word with alt+left/right", () => {
    const state = at("foo bar_baz, qux", 16);
    expect(show(moveWordLeft(state))).toBe("foo bar_baz, |qux");
    expect(show(moveWordLeft(moveWordLeft(state)))).toBe("foo |bar_baz, qux");
    expect(show(moveWordRight(at("foo bar_baz, qux", 3)))).toBe("foo bar_baz|, qux");
    expect(show(moveWordRight(at("foo bar", 0)))).toBe("foo| bar");
  });

  it("home/end go to the start and end of the current line", () => {
    expect(show(moveLineStart(at("one\ntwo", 6)))).toBe("one\n|two");
    expect(show(moveLineEnd(at("one\ntwo\nx", 4)))).toBe("one\ntwo|\nx");
    expect(show(moveLineStart(at("\nab", 0)))).toBe("|\nab");
  });

  it("up/down move between lines keeping the column, and report the first/last line", () => {
    const state = at("abcdef\nab\nabcdef", 5);
    expect(moveUp(state)).toBeUndefined();
    const down = moveDown(state) as EditorState;
    expect(show(down)).toBe("abcdef\nab|\nabcdef");
    // The goal column (5) is kept across the short line.
    const downAgain = moveDown(down) as EditorState;
    expect(show(downAgain)).toBe("abcdef\nab\nabcde|f");
    expect(moveDown(downAgain)).toBeUndefined();
    expect(show(moveUp(moveUp(downAgain) as EditorState) as EditorState)).toBe("abcde|f\nab\nabcdef");
    // A horizontal move forgets the goal column.
    expect(show(moveDown(moveLeft(down)) as EditorState)).toBe("abcdef\nab\na|bcdef");
  });

  it("up/down keep the display column over wide characters", () => {
    // "你好" is 4 columns wide: column 4 on the next line is after "abcd".
    expect(show(moveDown(at("你好x\nabcdef", 2)) as EditorState)).toBe("你好x\nabcd|ef");
    // Going up from column 3 lands before the wide character that would pass it.
    expect(show(moveUp(at("你好x\nabcdef", 7)) as EditorState)).toBe("你|好x\nabcdef");
  });

  it("moves over emoji, flags, ZWJ sequences and combining marks as one unit", () => {
    const text = "a👍🏽b🇫🇷c👨‍👩‍👧e\u0301";
    let state = at(text, 0);
    const stops: number[] = [];
    while (state.cursor < text.length) {
      state = moveRight(state);
      stops.push(state.cursor);
    }
    expect(stops.map((index) => text.slice(0, index)).slice(-1)[0]).toBe(text);
    expect(stops).toHaveLength(7); // a, 👍🏽, b, 🇫🇷, c, 👨‍👩‍👧, é
    for (const stop of stops) {
      const code = text.charCodeAt(stop);
      expect(code >= 0xdc00 && code <= 0xdfff).toBe(false); // never between surrogates
    }
    const back: number[] = [];
    while (state.cursor > 0) {
      state = moveLeft(state);
      back.push(state.cursor);
    }
    expect(back).toEqual([...stops.slice(0, -1)].reverse().concat(0));
    expect(show(backspace(at("x😀", 3)))).toBe("x|");
    expect(show(deleteForward(at("😀y", 0)))).toBe("|y");
    expect(show(backspace(at("中文", 2)))).toBe("中|");
  });
});

describe("editor state: pastes and chips", () => {
  it("inserts a paste of 10 lines or fewer as text, with CRLF and CR normalised", () => {
    const state = insertPaste(at("ab", 1), "x\r\ny\rz");
    expect(show(state)).toBe("ax\ny\nz|b");
    expect(state.pasteCounter).toBe(0);
    expect(insertPaste(emptyEditor, lines(10)).text).toBe(lines(10));
  });

  it("turns a paste of more than 10 lines into a chip and expands it byte for byte", () => {
    const pasted = `${lines(50)}\n`;
    const state = insertText(insertPaste(insertText(emptyEditor, "see "), pasted), " thanks");
    expect(state.text).toBe("see [Paste #1 – 50 lines] thanks");
    expect(expand(state)).toBe(`see ${pasted} thanks`);
    const second = insertPaste(state, lines(12, "more"));
    expect(second.text).toContain("[Paste #2 – 12 lines]");
    expect(expand(second)).toBe(`see ${pasted} thanks${lines(12, "more")}`);
  });

  it("normalises CRLF inside a chip too", () => {
    const state = insertPaste(emptyEditor, lines(20).replace(/\n/g, "\r\n"));
    expect(state.text).toBe("[Paste #1 – 20 lines]");
    expect(expand(state)).toBe(lines(20));
  });

  it("removes a chip whole with backspace or delete and forgets its text", () => {
    const state = insertText(insertPaste(insertText(emptyEditor, "a "), lines(11)), " b");
    const chipEnd = state.text.indexOf("]") + 1;
    const removed = backspace({ ...state, cursor: chipEnd });
    expect(show(removed)).toBe("a | b");
    expect(removed.pastes).toEqual({});
    expect(expand(removed)).toBe("a  b");
    expect(show(deleteForward({ ...state, cursor: 2 }))).toBe("a | b");
  });

  it("moves over a chip as one unit and never stops inside it", () => {
    const state = insertText(insertPaste(insertText(emptyEditor, "a "), lines(11)), " b");
    const chipStart = 2;
    const chipEnd = state.text.indexOf("]") + 1;
    expect(moveLeft({ ...state, cursor: chipEnd }).cursor).toBe(chipStart);
    expect(moveRight({ ...state, cursor: chipStart }).cursor).toBe(chipEnd);
    expect(moveWordLeft({ ...state, cursor: chipEnd + 1 }).cursor).toBe(chipStart);
    expect(moveWordRight({ ...state, cursor: chipStart - 1 }).cursor).toBe(chipEnd);
  });

  it("ctrl+w, ctrl+u and ctrl+k take a chip whole when they reach into it", () => {
    const state = insertText(insertPaste(insertText(emptyEditor, "go "), lines(11)), " now");
    expect(deleteWordBack({ ...state, cursor: state.text.indexOf("]") + 1 }).text).toBe("go  now");
    expect(deleteToLineStart({ ...state, cursor: state.text.length }).text).toBe("");
    const cut = deleteToLineEnd({ ...state, cursor: 1 });
    expect(cut.text).toBe("g");
    expect(cut.pastes).toEqual({});
  });

  it("keeps a typed look-alike of a chip as plain text", () => {
    const state = insertText(emptyEditor, "[Paste #7 – 3 lines]");
    expect(backspace(state).text).toBe("[Paste #7 – 3 lines");
    expect(expand(state)).toBe("[Paste #7 – 3 lines]");
  });

  it("keeps $ patterns in a paste literal when expanding", () => {
    const pasted = `${lines(11)}\n$& $1 $$ $\``;
    expect(expand(insertPaste(emptyEditor, pasted))).toBe(pasted);
  });
});

describe("editor state: large pastes", () => {
  it("inserts a 5 MB one-line paste once as text and expands it byte for byte", () => {
    const big = "é😀x".repeat(1_400_000).slice(0, 5 * 1024 * 1024); // 5 MB of UTF-16, no pair cut
    const cpu = cpuTimer();
    let state = insertPaste(insertText(emptyEditor, ">"), big);
    state = insertText(state, "<");
    state = backspace(moveRight(moveLeft(state))); // over "<" and back, then delete it
    const elapsed = cpu();
    expect(state.pasteCounter).toBe(0);
    expect(state.text.length).toBe(big.length + 1);
    expect(expand(state) === `>${big}`).toBe(true); // (not toBe: a failure would print 5 MB)
    expect(elapsed).toBeLessThan(2000);
  });

  it("turns a 5 MB paste of 200,000 lines into one chip and expands it byte for byte", () => {
    const row = "0123456789abcdefghijklmnopq"; // 27 characters + newline = 28 per line
    const big = `${row}\n`.repeat(200_000);
    expect(big.length).toBeGreaterThanOrEqual(5_000_000);
    const cpu = cpuTimer();
    let state = insertPaste(insertText(emptyEditor, "review: "), big);
    state = insertText(moveRight(moveLeft(state)), " please");
    const sent = expand(state);
    const elapsed = cpu();
    expect(state.text).toBe("review: [Paste #1 – 200000 lines] please");
    expect(sent.length).toBe(big.length + "review:  please".length);
    expect(sent === `review: ${big} please`).toBe(true);
    expect(countLines(big)).toBe(200_000);
    expect(elapsed).toBeLessThan(2000);
  });
});

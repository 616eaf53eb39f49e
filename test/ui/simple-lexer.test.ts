/**
 * The simple lexer (src/ui/markdown/simple-lexer.ts) stands in for marked in a resumed session's early
 * preview: whatever it takes must give marked's tokens (so the same lines), and what it does not take it must
 * refuse. Checked over hand-picked answers and a seeded corpus of lines mixing plain text with constructs on
 * both sides of the subset's edge.
 */
import { Lexer, type Token } from "marked";
import { describe, expect, it } from "vitest";
import { renderBlocks } from "../../src/ui/markdown/render-blocks.js";
import { renderMarkdown } from "../../src/ui/markdown/render-markdown.js";
import { lexSimpleMarkdown } from "../../src/ui/markdown/simple-lexer.js";
import { stylesFor } from "../../src/ui/markdown/styles.js";
import { createTheme, plainTheme } from "../../src/ui/theme.js";

const colourTheme = createTheme({ TERM: "xterm-256color" }, true);

/** marked's tokens as the renderer reads them: without `raw` (not read for these types) and the blank-line `space` tokens. */
function comparable(tokens: readonly Token[]): unknown {
  const withoutRaw = JSON.parse(JSON.stringify(tokens, (key, value: unknown) => (key === "raw" ? undefined : value))) as Token[];
  return withoutRaw.filter((token) => token.type !== "space");
}

function expectSameAsMarked(text: string): void {
  const simple = lexSimpleMarkdown(text);
  expect(simple, text).toBeDefined();
  expect(comparable(simple as Token[]), text).toEqual(comparable(Lexer.lex(text, { gfm: true, breaks: true })));
  for (const theme of [plainTheme, colourTheme]) {
    const lines = renderBlocks(simple as Token[], 40, { theme, styles: stylesFor(theme), listDepth: 0 }).join("\n");
    expect(lines, text).toBe(renderMarkdown(text, { width: 40, theme }));
  }
}

const TAKEN = [
  // The bench's answer (bench/tui-sessions.ts).
  "Answer 0042: the handler retries **twice** with backoff, then reports the error.\n\n- It reads the `retry-after` header when there is one.\n- Otherwise it waits 500 ms, then 1 s.\n\n```ts\nconst delay = attempt === 0 ? 500 : 1000; // request 42\nawait sleep(delay);\n```",
  "Done. The tests pass.",
  "Here is what changed:\n- `src/a.ts`: the loop ends early\n- `src/b.ts`: one more check",
  "## Summary\n\n1. Read the file.\n2. Fixed the **off-by-one** in `count()`.\n3. Ran the tests (all green).",
  "**Note**: this needs Node 20.\nIt runs on 22 too.",
  "```\nplain <code> & _stuff_ [x](y)\n\n  indented\n```\n\nAfter the code.",
  "Café — naïve “quotes” and 日本語 are text too.",
  "# Title\nRight after a heading.",
];

const REFUSED = [
  "See [the docs](https://example.com).",
  "Visit https://example.com or www.example.com.",
  "Mail me at someone@example.com.",
  "snake_case and _emphasis_",
  "a *single star* emphasis",
  "Escaped \\* star",
  "An &amp; entity",
  "Inline <b>html</b>",
  "> a quote",
  "| a | b |\n|---|---|\n| 1 | 2 |",
  "Setext\n======",
  "Setext\n---",
  "- a\n\n- b",
  "- a\n  - nested",
  "- a\ncontinued lazily",
  "* star bullet",
  "    indented code",
  "Two spaces at the end  \nbreak",
  "~~~\ncode\n~~~",
  "```ts\nnot closed",
  "```\n  ```\n```",
  "Paragraph\n2. interrupted by a list not starting at 1",
  "``double`` backticks",
  "`unclosed code",
  "a **bold**text",
  "# closed heading #",
  "tab\there",
];

describe("the simple Markdown lexer", () => {
  it.each(TAKEN)("takes %j and gives marked's tokens", (text) => expectSameAsMarked(text));

  it.each(REFUSED)("refuses %j", (text) => {
    expect(lexSimpleMarkdown(text)).toBeUndefined();
  });

  it("gives marked's tokens for whatever it takes from a corpus of mixed lines", () => {
    const words = [
      "alpha",
      "beta",
      "runs",
      "it",
      "Answer 12:",
      "**bold**",
      "**two words**",
      "`code`",
      "`a < b && c`",
      "(**x**)",
      "**x**,",
      "**café**",
      "élan",
      "**日本**",
    ];
    const edges = ['"quoted"', "it's", "a > b", "x = 1", "50%", "#hash", "e.g.", "1.5", "done!", "what?", "a-b", "2 * 3", "_u_", "[l](x)"];
    const more = ["http://x.y", "a@b.co", "&amp;", "<b>", "~~s~~", "*i*", "**", "``", "` sp `", "é", "—", "日本"];
    const starts = [
      "",
      "",
      "",
      "é",
      "日",
      "- ",
      "1. ",
      "2. ",
      "10. ",
      "# ",
      "## ",
      "**B**: ",
      "`c` ",
      "  ",
      "> ",
      "* ",
      "+ ",
      "1) ",
      "---",
      "===",
      "-  ",
      "#",
      "\t",
      "1.5 ",
    ];
    const fences = ["```", "```ts", "```c++", "``` ts", "~~~"];
    const codeLines = ["const a = 1;", "", "  indented", "\tx", "  ```", "```js", "<b> & _x_"];
    const closers = ["```", "```", "````", " ```"];
    let seed = 7;
    const pick = <T>(list: readonly T[]): T => {
      seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
      return list[seed % list.length] as T;
    };
    const chance = (n: number) => pick(Array.from({ length: n }, (_, i) => i === 0));
    let taken = 0;
    for (let sample = 0; sample < 8000; sample++) {
      const lines: string[] = [];
      for (let count = pick([1, 2, 3, 4, 5, 6]); count > 0; count--) {
        if (chance(4)) lines.push("");
        else if (chance(8)) {
          lines.push(pick(fences));
          for (let code = pick([0, 1, 2, 3]); code > 0; code--) lines.push(pick(codeLines));
          if (!chance(6)) lines.push(pick(closers));
        } else {
          const line = Array.from({ length: pick([0, 1, 2, 3, 4, 5]) }, () => (chance(3) ? pick([...words, ...edges, ...more]) : pick(words)));
          lines.push(`${pick(starts)}${line.join(chance(8) ? "  " : " ")}${chance(15) ? " " : ""}`);
        }
      }
      const text = lines.join("\n");
      if (text.trim() === "" || lexSimpleMarkdown(text) === undefined) continue;
      taken++;
      expectSameAsMarked(text);
    }
    // The corpus reaches both sides: a good share is taken, the rest refused.
    expect(taken).toBeGreaterThan(300);
    expect(taken).toBeLessThan(6000);
  });
});

import stringWidth from "string-width";
import stripAnsi from "strip-ansi";
import { describe, expect, it } from "vitest";
import { highlightCode, isHighlighterLoaded, preloadHighlighter, resolveLanguage } from "../../src/ui/markdown/highlight.js";
import { renderMarkdown } from "../../src/ui/markdown/render-markdown.js";
import { createTheme, plainTheme } from "../../src/ui/theme.js";

const colour = createTheme({ FORCE_COLOR: "1" }, true);
const ESC = "\u001b";
const plain = (text: string, width = 60) => renderMarkdown(text, { width, theme: plainTheme });
const coloured = (text: string, width = 60) => renderMarkdown(text, { width, theme: colour });
const widest = (output: string) =>
  Math.max(
    ...stripAnsi(output)
      .split("\n")
      .map((line) => stringWidth(line)),
  );

const codeDoc = "```ts\nconst answer: number = 42; // the answer\n```";

// Runs first: the highlighter is loaded further down, and it stays loaded for the rest of this file.
describe("code fences before the highlighter is loaded", () => {
  it("shows the language label and the code as written, without colour in the code", () => {
    expect(isHighlighterLoaded()).toBe(false);
    const lines = coloured(codeDoc).split("\n");
    expect(stripAnsi(lines[0] ?? "")).toBe("ts");
    expect(lines[1]).toBe("  const answer: number = 42; // the answer");
    expect(highlightCode("const a = 1;", "ts", colour)).toBe("const a = 1;");
  });
});

describe("renderMarkdown", () => {
  it("renders headings bold in the accent colour, and keeps the # marker without colour", () => {
    const doc = "# Title\n\n## Section\n\ntext";
    expect(plain(doc).split("\n")).toEqual(["# Title", "", "## Section", "", "text"]);
    const out = coloured(doc);
    expect(stripAnsi(out).split("\n")).toEqual(["Title", "", "Section", "", "text"]);
    expect(out).toContain(`${ESC}[1m`);
    expect(out).toContain(`${ESC}[36m`); // cyan accent
  });

  it("renders emphasis without the Markdown markers", () => {
    const doc = "Some **bold**, *italic* and ~~gone~~ words.";
    expect(plain(doc)).toBe("Some bold, italic and gone words.");
    const out = coloured(doc);
    expect(out).toContain(`${ESC}[1mbold${ESC}[22m`);
    expect(out).toContain(`${ESC}[3mitalic${ESC}[23m`);
    expect(out).toContain(`${ESC}[9mgone`);
  });

  it("renders inline code in its own colour, without backticks", () => {
    expect(plain("Run `npm test` now.")).toBe("Run npm test now.");
    const out = coloured("Run `npm test` now.");
    expect(out).toContain(`${ESC}[33mnpm test${ESC}[39m`);
    expect(out.startsWith("Run ")).toBe(true);
  });

  it("shows a link's text then its address, and a bare address once", () => {
    expect(plain("See [the docs](https://example.com/docs).")).toBe("See the docs (https://example.com/docs).");
    expect(plain("Go to <https://example.com>.")).toBe("Go to https://example.com.");
    expect(plain("Go to [example.com](https://example.com).")).toBe("Go to example.com.");
  });

  it("decodes entities and keeps escaped characters", () => {
    expect(plain("a &amp; b \\*not em\\* &lt;tag&gt;")).toBe("a & b *not em* <tag>");
  });

  it("renders nested bullet and numbered lists with a hanging indent", () => {
    const doc = "- one\n- two is a longer item that has to wrap\n  - nested\n    1. deep\n    2. deeper\n- [x] done";
    expect(plain(doc, 30).split("\n")).toEqual([
      "• one",
      "• two is a longer item that",
      "  has to wrap",
      "  ◦ nested",
      "    1. deep",
      "    2. deeper",
      "• [x] done",
    ]);
    expect(plain("3. c\n4. d\n5. e\n6. f\n7. g\n8. h\n9. i\n10. j").split("\n").slice(-2)).toEqual([" 9. i", "10. j"]);
  });

  it("separates loose list items with a blank line", () => {
    expect(plain("1. a\n\n2. b").split("\n")).toEqual(["1. a", "", "2. b"]);
  });

  it("puts a bar before block quotes", () => {
    expect(plain("> quoted words that wrap around here", 20).split("\n")).toEqual(["│ quoted words that", "│ wrap around here"]);
  });

  it("renders rules across the width, and HTML as plain text", () => {
    expect(plain("a\n\n---\n\nb", 10).split("\n")).toEqual(["a", "", "─".repeat(10), "", "b"]);
    expect(plain("<div>hi</div>")).toBe("<div>hi</div>");
  });

  it("wraps long code lines keeping their indent, and expands tabs", () => {
    const long = "x".repeat(60);
    const out = plain(`\`\`\`\n${long}\n\tindented ${"y".repeat(40)}\n\`\`\``, 40).split("\n");
    expect(out).toEqual([`  ${"x".repeat(38)}`, `  ${"x".repeat(22)}`, `      indented ${"y".repeat(25)}`, `      ${"y".repeat(15)}`]);
  });

  it("keeps a wrapped code line's colours and indent once highlighted", async () => {
    await preloadHighlighter();
    const out = coloured(`\`\`\`ts\n    const value = "${"z".repeat(60)}";\n\`\`\``, 40)
      .split("\n")
      .slice(1);
    expect(out.length).toBeGreaterThan(1);
    for (const line of out) {
      expect(stringWidth(stripAnsi(line))).toBeLessThanOrEqual(40);
      expect(stripAnsi(line)).toMatch(/^ {6}\S/);
    }
    // The string's colour goes on after the cut.
    expect(out[1]).toContain(ESC);
  });

  it("shows the model's single newlines as line breaks", () => {
    expect(plain("First line\nSecond line\nThird line").split("\n")).toEqual(["First line", "Second line", "Third line"]);
    expect(plain("- item one\n  still item one\n- item two").split("\n")).toEqual(["• item one", "  still item one", "• item two"]);
    expect(plain("> quoted\n> two").split("\n")).toEqual(["│ quoted", "│ two"]);
  });

  it("lays out tables with computed column widths and alignment", () => {
    const doc = "| Name | Count |\n|:-----|------:|\n| apples | 3 |\n| kiwis | 12 |";
    expect(plain(doc).split("\n")).toEqual(["Name   │ Count", "───────┼──────", "apples │     3", "kiwis  │    12"]);
  });

  it("wraps table cells to fit the width, and falls back to rows when it cannot", () => {
    const doc = "| Key | Description |\n|---|---|\n| a | a description long enough that it has to wrap inside its cell |";
    const out = plain(doc, 30);
    expect(widest(out)).toBeLessThanOrEqual(30);
    expect(out.split("\n").length).toBeGreaterThan(3);
    expect(out.replace(/[\s│─┼]+/g, " ")).toContain("a description long enough");

    const wide = `| ${Array.from({ length: 8 }, (_, index) => `h${index}`).join(" | ")} |\n|${"---|".repeat(8)}\n| ${Array.from({ length: 8 }, (_, index) => `v${index}`).join(" | ")} |`;
    const records = plain(wide, 20).split("\n");
    expect(records).toContain("h0: v0");
    expect(records).toContain("h7: v7");
  });

  it("wraps at width 40 by display columns, CJK and emoji included", () => {
    const doc = [
      "# A heading that is long enough to be wrapped at forty columns",
      "Plain words that go on and on for a while, more than forty columns for sure, with **bold words** and `code spans` inside.",
      "中文文本测试，这是一个很长的句子，需要被正确地换行处理，而且不能超过宽度。日本語の文章もここにあります。",
      "Emoji 🎉🎉🎉 mixed 👍 with text 🚀 and more 😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀 to wrap.",
      "averyveryveryveryveryveryveryveryveryverylongwordwithoutanyspacesatall",
      "- a list item with text long enough to wrap 中文中文中文中文中文中文中文中文中文",
      "> a quote with 한국어 텍스트 that also needs to wrap at the given width",
      "| 名前 | 説明 |\n|---|---|\n| りんご | 赤くて甘い果物で、とても人気があります。世界中で食べられています。 |",
    ].join("\n\n");
    for (const theme of [plainTheme, colour]) {
      const out = renderMarkdown(doc, { width: 40, theme });
      expect(widest(out)).toBeLessThanOrEqual(40);
      const squash = (text: string) => text.replace(/[\s│─┼•>#*`|-]+/g, "");
      for (const phrase of ["日本語の文章もここにあります。", "averyveryveryveryvery", "😀😀😀😀", "한국어텍스트"]) {
        expect(squash(stripAnsi(out))).toContain(phrase);
      }
    }
    expect(plain("中文文本测试中文文本测试中文文本测试中文文本测试中文文本测试", 40).split("\n")).toEqual([
      "中文文本测试中文文本测试中文文本测试中文",
      "文本测试中文文本测试",
    ]);
  });

  it("prints no ANSI code at all with the plain theme", () => {
    const doc = `# H\n\n**b** *i* \`c\` [l](https://x.y)\n\n- a\n\n> q\n\n${codeDoc}\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n---`;
    expect(plain(doc)).not.toContain(ESC);
    expect(coloured(doc)).toContain(ESC);
  });

  it("renders a 2,000-line document", () => {
    const blocks: string[] = [];
    let last = 0;
    for (let index = 0; blocks.length < 2000; index++) {
      last = index;
      blocks.push(
        `## Part ${index}`,
        "",
        `Paragraph ${index} with **bold**, \`code\` and a [link](https://example.com/${index}).`,
        "",
        `- item ${index}`,
        `- item ${index} b`,
        "",
      );
      if (index % 10 === 0) blocks.push("```js", `console.log(${index});`, "```", "");
    }
    const doc = blocks.join("\n");
    expect(doc.split("\n").length).toBeGreaterThanOrEqual(2000);
    const out = renderMarkdown(doc, { width: 80, theme: colour });
    const text = stripAnsi(out);
    expect(text).toContain("Part 0");
    expect(text).toContain(`Paragraph ${last} with bold, code and a link (https://example.com/${last}).`);
    expect(out.split("\n").length).toBeGreaterThan(1500);
  });

  it("renders nothing for blank text", () => {
    expect(plain("  \n\n ")).toBe("");
  });
});

describe("highlighting", () => {
  it("colours fenced code once the highlighter is loaded, for colour themes only", async () => {
    await preloadHighlighter();
    expect(isHighlighterLoaded()).toBe(true);
    const out = coloured(codeDoc);
    const codeLine = out.split("\n")[1] ?? "";
    expect(codeLine).toContain(ESC);
    expect(stripAnsi(codeLine)).toBe("  const answer: number = 42; // the answer");
    expect(plain(codeDoc)).not.toContain(ESC);
  });

  it("resolves language aliases and leaves unknown languages plain", async () => {
    await preloadHighlighter();
    expect(resolveLanguage("TS")).toBe("typescript");
    expect(resolveLanguage("zsh")).toBe("bash");
    expect(resolveLanguage("py")).toBe("python");
    expect(resolveLanguage("yml")).toBe("yaml");
    expect(highlightCode("echo hi # note", "sh", colour)).toContain(ESC);
    expect(highlightCode("def f(): pass", "py", colour)).toContain(ESC);
    expect(highlightCode("some words", "no-such-language", colour)).toBe("some words");
    expect(highlightCode("const a = 1;", undefined, colour)).toBe("const a = 1;");
    expect(highlightCode("const a = 1;", "ts", plainTheme)).toBe("const a = 1;");
  });
});

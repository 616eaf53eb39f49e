import widestLine from "widest-line";
import { describe, expect, it } from "vitest";
import rememberedWidestLine from "../../src/ui/terminal/remembered-widest-line.js";

const texts = [
  "",
  "plain",
  "two\nlines, the second longer",
  "日本語のテキスト",
  "emoji 🙂👍🏽 and a family 👨‍👩‍👧",
  "\u001b[31mred\u001b[39m and \u001b[1mbold\u001b[22m",
  "tab\there",
  "combining e\u0301 and Hangul 한국어",
  "x".repeat(511),
  "y".repeat(513),
  `${"wide 漢字 ".repeat(80)}\n${"narrow ".repeat(10)}`,
];

describe("the widths Ink's build measures text with", () => {
  // The build gives this to Ink in place of widest-line (scripts/build.mjs): a frame must be laid out the same.
  it("gives widest-line's answer, the first time and when remembered", () => {
    for (const text of texts) {
      expect(rememberedWidestLine(text), JSON.stringify(text)).toBe(widestLine(text));
      expect(rememberedWidestLine(text), JSON.stringify(text)).toBe(widestLine(text));
    }
  });

  it("still answers right after its memory has been emptied", () => {
    for (let index = 0; index < 10_000; index++)
      expect(rememberedWidestLine(`row ${index} ${"漢".repeat(index % 7)}`)).toBe(8 + String(index).length - 3 + 2 * (index % 7));
    for (const text of texts) expect(rememberedWidestLine(text)).toBe(widestLine(text));
  });
});

import { describe, expect, it } from "vitest";
import sanitizeAnsi from "../../node_modules/ink/build/sanitize-ansi.js";
import rememberedSanitizeAnsi from "../../src/ui/terminal/remembered-sanitize-ansi.js";

const texts = [
  "",
  "plain",
  "\u001b[31mred\u001b[39m and \u001b[1mbold\u001b[22m",
  "cursor \u001b[2Aup, \u001b[2Kcleared, \u001b[?25lhidden",
  "a link \u001b]8;;https://example.com\u0007here\u001b]8;;\u0007",
  "C1 \u009b31mcsi and a lone \u001b",
  "\u001b[38;2;1;2;3mtrue colour\u001b[0m",
  `${"\u001b[2mdim\u001b[22m ".repeat(60)}`,
  `${"\u001b[3Cx".repeat(200)}`,
];

describe("the text cleaning Ink's build uses", () => {
  // The build gives this to Ink's squash-text-nodes.js in place of its own (scripts/build.mjs): a frame must be the same.
  it("gives Ink's answer, the first time and when remembered", () => {
    for (const text of texts) {
      expect(rememberedSanitizeAnsi(text), JSON.stringify(text)).toBe(sanitizeAnsi(text));
      expect(rememberedSanitizeAnsi(text), JSON.stringify(text)).toBe(sanitizeAnsi(text));
    }
  });

  it("still answers right after its memory has been emptied", () => {
    for (let index = 0; index < 10_000; index++) expect(rememberedSanitizeAnsi(`\u001b[1mrow ${index}\u001b[2K`)).toBe(`\u001b[1mrow ${index}`);
    for (const text of texts) expect(rememberedSanitizeAnsi(text)).toBe(sanitizeAnsi(text));
  });
});

import { createTwoFilesPatch } from "diff";
import stringWidth from "string-width";
import stripAnsi from "strip-ansi";
import { describe, expect, it } from "vitest";
import { renderDiff } from "../../src/ui/markdown/render-diff.js";
import { createTheme, plainTheme } from "../../src/ui/theme.js";

const colour = createTheme({ FORCE_COLOR: "1" }, true);
const ESC = "\u001b";

const before = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"].join("\n") + "\n";
const after = ["one", "two", "three", "FOUR", "five", "six", "seven", "eight", "nine", "ten", "eleven"].join("\n") + "\n";
const patch = createTwoFilesPatch("src/a.ts", "src/a.ts", before, after, undefined, undefined, { context: 1 });

describe("renderDiff", () => {
  it("drops file headers and numbers the lines", () => {
    expect(patch).toContain("Index: src/a.ts");
    expect(patch).toContain("--- src/a.ts");
    const lines = renderDiff(patch, { width: 60, theme: plainTheme }).split("\n");
    expect(lines).toEqual(["@@ -3,3 +3,3 @@", " 3   three", " 4 - four", " 4 + FOUR", " 5   five", "@@ -10,1 +10,2 @@", "10   ten", "11 + eleven"]);
  });

  it("colours added lines green, removed lines red and hunk headers dim, and nothing with the plain theme", () => {
    const lines = renderDiff(patch, { width: 60, theme: colour }).split("\n");
    expect(lines.find((line) => stripAnsi(line) === " 4 + FOUR")).toContain(`${ESC}[32m`);
    expect(lines.find((line) => stripAnsi(line) === " 4 - four")).toContain(`${ESC}[31m`);
    expect(lines[0]).toContain(`${ESC}[90m`);
    expect(lines.find((line) => stripAnsi(line) === " 5   five")).not.toContain(`${ESC}[32m`);
    expect(renderDiff(patch, { width: 60, theme: plainTheme })).not.toContain(ESC);
  });

  it("keeps content lines that look like file headers inside a hunk", () => {
    const sql = createTwoFilesPatch("q.sql", "q.sql", "-- old comment\nselect 1;\n", "++ new\nselect 1;\n");
    const out = renderDiff(sql, { width: 60, theme: plainTheme }).split("\n");
    expect(out).toContain("1 - -- old comment");
    expect(out).toContain("1 + ++ new");
  });

  it("shows at most maxLines rows, then says how many more", () => {
    const big = createTwoFilesPatch("f", "f", "", Array.from({ length: 100 }, (_, index) => `line ${index + 1}`).join("\n") + "\n");
    const out = renderDiff(big, { width: 60, theme: plainTheme }).split("\n");
    expect(out).toHaveLength(41);
    expect(out[0]).toBe("@@ -0,0 +1,100 @@");
    expect(out[39]).toBe("39 + line 39");
    expect(out[40]).toBe("… 61 more lines (ctrl+o to expand)");
    const short = renderDiff(big, { width: 60, theme: plainTheme, maxLines: 5 }).split("\n");
    expect(short).toHaveLength(6);
    expect(short[5]).toBe("… 96 more lines (ctrl+o to expand)");
  });

  it("cuts long lines to the width", () => {
    const long = createTwoFilesPatch("f", "f", "a\n", `${"word ".repeat(40)}\n中文中文中文中文中文中文中文中文中文中文中文中文\n`);
    const out = renderDiff(long, { width: 30, theme: colour });
    for (const line of stripAnsi(out).split("\n")) expect(stringWidth(line)).toBeLessThanOrEqual(30);
    expect(stripAnsi(out)).toContain("1 + word word");
    expect(stripAnsi(out)).toContain("…");
  });

  it("renders an empty diff as nothing", () => {
    expect(renderDiff("", { width: 40, theme: plainTheme })).toBe("");
    expect(renderDiff("--- a\n+++ b\n", { width: 40, theme: plainTheme })).toBe("");
  });
});

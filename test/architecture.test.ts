/** House rules a machine can check: the core imports no UI, files stay small, no `any`. */
import { readFileSync } from "node:fs";
import fg from "fast-glob";
import { describe, expect, it } from "vitest";

const files = fg.sync("src/**/*.{ts,tsx}");

describe("architecture", () => {
  it("keeps ink, react and chalk out of everything but src/ui and src/cli", () => {
    const offenders = files
      .filter((file) => !file.startsWith("src/ui/") && !file.startsWith("src/cli/"))
      .filter((file) => /from ["'](ink|react|chalk|ink-[a-z-]+)["']|from ["'][./]+ui\//.test(readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });

  it("keeps the headless CLI free of ink and react", () => {
    const offenders = files.filter((file) => file.startsWith("src/cli/") && /from ["'](ink|react)["']/.test(readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });

  it("keeps every source file under 500 lines", () => {
    const long = files.map((file) => ({ file, lines: readFileSync(file, "utf8").split("\n").length })).filter(({ lines }) => lines > 500);
    expect(long).toEqual([]);
  });

  it("uses no `any`", () => {
    const offenders = files.filter((file) => /:\s*any\b|\bas any\b|<any>/.test(readFileSync(file, "utf8")));
    expect(offenders).toEqual([]);
  });

  it("names files in kebab-case", () => {
    const offenders = files.filter((file) => !/^[a-z0-9]+(-[a-z0-9]+)*\.tsx?$/.test(file.split("/").at(-1) ?? ""));
    expect(offenders).toEqual([]);
  });
});

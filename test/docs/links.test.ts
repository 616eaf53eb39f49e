/**
 * The README is a front door to docs/: every relative link in the README and the docs pages reaches a file
 * that exists, and a link to a heading (`page.md#heading`) reaches a heading of that page, so moving a
 * section cannot leave a dead link behind.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(".");
const pages = [
  "README.md",
  ...readdirSync(path.join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replace(/ /g, "-");
}

function headingsOf(file: string): Set<string> {
  let fenced = false;
  const anchors = new Set<string>();
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = /^#{1,6} (.*)/.exec(line);
    if (heading && !fenced) anchors.add(anchorOf(heading[1] ?? ""));
  }
  return anchors;
}

function linksOf(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), "utf8").replace(/```[\s\S]*?```/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? "").filter((link) => !/^[a-z]+:/i.test(link));
}

describe("the documentation's links", () => {
  it("the README stays a front door", () => {
    expect(readFileSync(path.join(ROOT, "README.md"), "utf8").split("\n").length).toBeLessThanOrEqual(400);
  });

  it.each(pages)("every relative link in %s reaches a file and a heading", (page) => {
    const dead = linksOf(page).filter((link) => {
      const [target = "", anchor] = link.split("#");
      const file = target === "" ? path.join(ROOT, page) : path.resolve(path.dirname(path.join(ROOT, page)), target);
      if (!existsSync(file)) return true;
      return anchor !== undefined && file.endsWith(".md") && !headingsOf(file).has(anchor);
    });
    expect(dead).toEqual([]);
  });
});

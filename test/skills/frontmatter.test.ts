/** The fast frontmatter reader gives YAML's own answer or none: every case is checked against the YAML package. */
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { parseFrontmatterYaml, readSimpleYaml, splitFrontmatter } from "../../src/skills/frontmatter.js";

const CASES: string[] = [
  "name: pdf\ndescription: Make PDFs. Use when asked for a report.",
  "name: \"quoted\"\ndescription: 'it''s single'",
  'description: "escapes \\" and \\\\ and \\n"',
  "flag: true\nother: False\nnone: null\ntilde: ~\ncount: 42\nneg: -7\nplus: +3\nzero: 007",
  "version: 1.0\nsemver: 1.0.0\nhex: 0x1F\nnan: .nan",
  "allowed-tools: [Read, Grep, 'Bash(git add:*)']\nempty: []",
  "allowed-tools:\n  - Read\n  - Bash(git:*)\n  -\n",
  'metadata:\n  author: someone\n  version: "2"\n  tags: x',
  "description: >\n  Folded text\n  over lines.\n\n  New paragraph.\nname: x",
  "description: |\n  Literal\n    indented\n  end\n",
  "description: >-\n  stripped\n  fold\n",
  "description: |-\n  keep\n\n  blank\n\n",
  "description: plain # with a comment\nname: x # another",
  "description: has: a colon",
  "description: trailing colon:",
  "description: continued\n  on the next line",
  "key:value",
  "anchor: &a x\nref: *a",
  "map: {a: 1}",
  "dup: 1\ndup: 2",
  "# a comment\nname: x\n\n# another\ndescription: y",
  "list:\n  - a\n  - b: c",
  "nested:\n  deep:\n    deeper: 1",
  "tabbed:\n\t- a",
  "name: -dash",
  "name: '@at'",
  "url: https://example.com/x",
  "windows: C:\\path\\to",
  "empty:",
  'quoted-key-list: ["a, b", c]',
  'description: "unclosed',
  "text: yes\nother: no\nthird: on",
];

describe("readSimpleYaml", () => {
  for (const text of CASES) {
    it(`agrees with the YAML package (or defers to it): ${JSON.stringify(text).slice(0, 60)}`, () => {
      const fast = readSimpleYaml(text);
      let full: unknown;
      let fullError: unknown;
      try {
        full = parse(text);
      } catch (error) {
        fullError = error;
      }
      if (fast !== undefined) {
        expect(fullError).toBeUndefined();
        expect(fast).toEqual(full ?? {});
      }
      // Whatever the fast reader does, the public parse is the YAML package's answer.
      if (fullError) expect(() => parseFrontmatterYaml(text)).toThrow();
      else expect(parseFrontmatterYaml(text)).toEqual(full ?? {});
    });
  }

  it("reads the common skill frontmatter without the YAML package", () => {
    expect(readSimpleYaml('name: pdf\ndescription: d\nallowed-tools: Bash(git add:*) Read\nuser-invocable: false\nmetadata:\n  version: "1"')).toEqual({
      name: "pdf",
      description: "d",
      "allowed-tools": "Bash(git add:*) Read",
      "user-invocable": false,
      metadata: { version: "1" },
    });
  });
});

describe("splitFrontmatter", () => {
  it("splits the YAML from the body, tolerating a BOM, CRLF and an empty block", () => {
    expect(splitFrontmatter("---\nname: x\n---\nbody\n")).toEqual({ yaml: "name: x", body: "body\n" });
    expect(splitFrontmatter("\uFEFF---\r\nname: x\r\n---\r\nbody")).toEqual({ yaml: "name: x", body: "body" });
    expect(splitFrontmatter("---\n---\nbody")).toEqual({ yaml: "", body: "body" });
    expect(splitFrontmatter("# no frontmatter")).toBeUndefined();
  });
});

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { IgnoreChecker } from "../../src/tools/file-walker.js";
import { expandBraces, globFilter } from "../../src/tools/grep-fallback.js";
import { findRipgrep, ripgrepArgs } from "../../src/tools/grep-ripgrep.js";
import { grepBackend, grepTool } from "../../src/tools/grep.js";
import { abortedContext, makeToolContext, runTool, runToolError, type TestToolContext } from "../support/tool-context.js";

const ripgrepAvailable = (await findRipgrep()) !== null;

let t: TestToolContext;
beforeEach(() => {
  t = makeToolContext();
  t.write({
    "src/app.ts": "import x from 'y';\nconst Foo = 1;\nconst foo = 2;\nexport default foo;\n",
    "src/util.py": "def foo():\n    return 'FOO'\n",
    "README.md": "# Foo project\n",
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  t.cleanup();
});

const grep = async (args: Record<string, unknown>): Promise<string> => (await runTool(grepTool, args, t.ctx)).content;

const backends = [
  { name: "fallback", disable: true, skip: false },
  { name: "ripgrep", disable: false, skip: !ripgrepAvailable },
] as const;

for (const backend of backends) {
  describe.skipIf(backend.skip)(`grep (${backend.name} backend)`, () => {
    const saved = process.env.AGENT_DISABLE_RIPGREP;
    beforeAll(() => {
      if (backend.disable) process.env.AGENT_DISABLE_RIPGREP = "1";
      else delete process.env.AGENT_DISABLE_RIPGREP;
    });
    afterAll(() => {
      if (saved === undefined) delete process.env.AGENT_DISABLE_RIPGREP;
      else process.env.AGENT_DISABLE_RIPGREP = saved;
    });

    it("uses the expected backend", async () => {
      expect((await grepBackend()).name).toBe(backend.name);
    });

    it("lists matching files by default, as absolute paths", async () => {
      expect(await grep({ pattern: "foo" })).toBe([t.at("src/app.ts"), t.at("src/util.py")].join("\n"));
    });

    it("prints matching lines as path:line:text in content mode, without numbers when -n is false", async () => {
      expect(await grep({ pattern: "const foo", output_mode: "content" })).toBe(`${t.at("src/app.ts")}:3:const foo = 2;`);
      expect(await grep({ pattern: "const foo", output_mode: "content", "-n": false })).toBe(`${t.at("src/app.ts")}:const foo = 2;`);
    });

    it("counts matching lines per file, and -i ignores case", async () => {
      expect(await grep({ pattern: "foo", output_mode: "count" })).toBe(`${t.at("src/app.ts")}:2\n${t.at("src/util.py")}:1`);
      expect(await grep({ pattern: "foo", output_mode: "count", "-i": true })).toBe(
        `${t.at("README.md")}:1\n${t.at("src/app.ts")}:3\n${t.at("src/util.py")}:2`,
      );
    });

    it("shows context lines as path-line-text with -- between groups", async () => {
      t.write({ "ctx.txt": "a\nhit one\nb\nc\nd\ne\nf\nhit two\ng\nh\n" });
      const file = t.at("ctx.txt");
      expect(await grep({ pattern: "hit", output_mode: "content", paths: "ctx.txt", "-C": 1 })).toBe(
        [`${file}-1-a`, `${file}:2:hit one`, `${file}-3-b`, "--", `${file}-7-f`, `${file}:8:hit two`, `${file}-9-g`].join("\n"),
      );
      expect(await grep({ pattern: "hit two", output_mode: "content", paths: "ctx.txt", "-A": 2 })).toBe(
        [`${file}:8:hit two`, `${file}-9-g`, `${file}-10-h`].join("\n"),
      );
      expect(await grep({ pattern: "hit two", output_mode: "content", paths: "ctx.txt", "-B": 1, "-C": 3 })).toBe(
        [`${file}-7-f`, `${file}:8:hit two`, `${file}-9-g`, `${file}-10-h`].join("\n"),
      );
    });

    it("keeps the first head_limit lines and says there are more", async () => {
      const out = await grep({ pattern: "foo", "-i": true, output_mode: "content", head_limit: 2 });
      const [body, note] = out.split("\n\n");
      expect(body!.split("\n")).toEqual([`${t.at("README.md")}:1:# Foo project`, `${t.at("src/app.ts")}:2:const Foo = 1;`]);
      expect(note).toMatch(/head_limit/);
    });

    it("filters by glob and by type", async () => {
      expect(await grep({ pattern: "foo", glob: "*.py" })).toBe(t.at("src/util.py"));
      expect(await grep({ pattern: "foo", "-i": true, glob: "*.{ts,md}" })).toBe(`${t.at("README.md")}\n${t.at("src/app.ts")}`);
      expect(await grep({ pattern: "foo", glob: "!*.py" })).toBe(t.at("src/app.ts"));
      expect(await grep({ pattern: "foo", type: "py" })).toBe(t.at("src/util.py"));
      expect(await grep({ pattern: "foo", type: "ts" })).toBe(t.at("src/app.ts"));
      const error = await runToolError(grepTool, { pattern: "foo", type: "no-such-type" }, t.ctx);
      expect(error.message).toMatch(/type/i);
    });

    it("matches across lines with multiline", async () => {
      expect(await grep({ pattern: "foo\\(\\):\\n\\s+return", output_mode: "content", multiline: true })).toBe(
        `${t.at("src/util.py")}:1:def foo():\n${t.at("src/util.py")}:2:    return 'FOO'`,
      );
      const error = await runToolError(grepTool, { pattern: "foo\\(\\):\\n\\s+return" }, t.ctx);
      expect(error.code).toBe("needs_multiline");
      expect(await grep({ pattern: "\\\\n" })).toBe("No matches found");
    });

    it("honours .gitignore (root, nested, negation, parent of the search root) and skips .git and binary files", async () => {
      t.write({
        ".git/HEAD": "needle",
        ".gitignore": "*.log\nnode_modules/\n!keep.log\n",
        "app.log": "needle",
        "keep.log": "needle",
        "node_modules/pkg/index.js": "needle",
        "lib/.gitignore": "gen.js\n",
        "lib/gen.js": "needle",
        "lib/main.js": "needle",
        ".github/ci.yml": "needle",
        "bin.dat": Buffer.from("needle\u0000binary"),
      });
      expect(await grep({ pattern: "needle" })).toBe([".github/ci.yml", "keep.log", "lib/main.js"].map((p) => t.at(p)).join("\n"));
      expect(await grep({ pattern: "needle", paths: "lib" })).toBe(t.at("lib/main.js"));
    });

    it("searches explicit files and several paths", async () => {
      expect(await grep({ pattern: "foo", paths: [t.at("src/util.py"), "README.md"], "-i": true })).toBe(`${t.at("src/util.py")}\n${t.at("README.md")}`);
    });

    it("says when nothing matched", async () => {
      expect(await grep({ pattern: "zebra" })).toBe("No matches found");
    });

    it("truncates output at 20 KB with a note", async () => {
      t.write({ "big.txt": Array.from({ length: 3000 }, (_, i) => `needle on line ${i}`).join("\n") });
      const out = await grep({ pattern: "needle", output_mode: "content" });
      expect(out.length).toBeLessThan(21 * 1024);
      expect(out).toMatch(/\[Output truncated at 20 KB/);
    });

    it("reports an invalid regex", async () => {
      const error = await runToolError(grepTool, { pattern: "foo(" }, t.ctx);
      expect(error.message).toMatch(/regex|regular expression/i);
    });

    it("reports a missing path", async () => {
      const error = await runToolError(grepTool, { pattern: "foo", paths: "missing" }, t.ctx);
      expect(error.code).toBe("not_found");
    });

    it("stops when the signal has fired", async () => {
      const error = await runToolError(grepTool, { pattern: "foo" }, abortedContext(t.ctx));
      expect(error.code).toBe("aborted");
    });
  });
}

describe("grep fallback details", () => {
  const saved = process.env.AGENT_DISABLE_RIPGREP;
  beforeAll(() => {
    process.env.AGENT_DISABLE_RIPGREP = "1";
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.AGENT_DISABLE_RIPGREP;
    else process.env.AGENT_DISABLE_RIPGREP = saved;
  });

  it("names the invalid regex", async () => {
    const error = await runToolError(grepTool, { pattern: "a[" }, t.ctx);
    expect(error.code).toBe("invalid_regex");
    expect(error.message).toMatch(/Invalid regular expression "a\["/);
  });

  it("does not walk into ignored directories", async () => {
    t.write({ ".gitignore": "node_modules\n", "node_modules/a/b.js": "foo" });
    const spy = vi.spyOn(IgnoreChecker.prototype, "isIgnored");
    expect(await grep({ pattern: "foo" })).not.toContain("node_modules");
    const checked = spy.mock.calls.map((call) => call[0]);
    expect(checked).toContain(t.at("node_modules"));
    expect(checked.some((p) => p.startsWith(t.at("node_modules") + "/"))).toBe(false);
  });

  it("expands braces and applies ripgrep-style globs", () => {
    expect(expandBraces("*.{ts,tsx}")).toEqual(["*.ts", "*.tsx"]);
    expect(expandBraces("{a,b}/{c,d}")).toEqual(["a/c", "a/d", "b/c", "b/d"]);
    expect(expandBraces("no-braces")).toEqual(["no-braces"]);
    const src = globFilter("src/**/*.ts");
    expect(src("src/a/b.ts")).toBe(true);
    expect(src("lib/src/b.ts")).toBe(false);
    expect(globFilter("*.ts")("deep/down/x.ts")).toBe(true);
  });

  it("builds the ripgrep command line for each mode", () => {
    const base = { pattern: "-x", roots: ["/r"], cwd: "/r", ignoreCase: false, before: 0, after: 0, lineNumbers: true, multiline: false, maxOutputChars: 1 };
    const files = ripgrepArgs({ ...base, mode: "files_with_matches" });
    expect(files).toContain("--files-with-matches");
    expect(files.slice(-4)).toEqual(["--regexp", "-x", "--", "/r"]);
    const content = ripgrepArgs({ ...base, mode: "content", before: 2, after: 1, ignoreCase: true, multiline: true, glob: "*.ts", type: "ts" });
    expect(content).toEqual(
      expect.arrayContaining(["--line-number", "--before-context=2", "--after-context=1", "--ignore-case", "--multiline", "--glob=*.ts", "--type=ts"]),
    );
    expect(ripgrepArgs({ ...base, mode: "count" })).toContain("--count");
  });
});

import { utimesSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { IgnoreChecker, listFiles } from "../../src/tools/file-walker.js";
import { GLOB_MAX_RESULTS, globTool } from "../../src/tools/glob.js";
import { abortedContext, makeToolContext, runTool, runToolError, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(() => {
  t = makeToolContext();
});
afterEach(() => {
  vi.restoreAllMocks();
  t.cleanup();
});

const paths = (content: string): string[] => content.split("\n\n[")[0]!.split("\n").sort();

/** A git repository exercising root, nested, negated, anchored and info/exclude rules. */
function writeRepo(): void {
  t.write({
    ".git/HEAD": "ref: refs/heads/main\n",
    ".git/config.ts": "in .git",
    ".git/info/exclude": "excluded-by-info.ts\n",
    ".gitignore": "*.log\nbuild/\nnode_modules\n!keep.log\n/root-only.ts\n",
    "a.ts": "",
    "src/c.ts": "",
    "src/d.log": "",
    "keep.log": "",
    "build/out.ts": "",
    "node_modules/pkg/index.ts": "",
    "root-only.ts": "",
    "excluded-by-info.ts": "",
    "sub/.gitignore": "generated.ts\n!important.log\n",
    "sub/root-only.ts": "",
    "sub/generated.ts": "",
    "sub/important.log": "",
    "sub/x.ts": "",
    ".github/ci.ts": "",
  });
}

describe("glob", () => {
  it("returns matching paths newest first, as ./paths under the working directory (Copilot's form)", async () => {
    t.write({ "old.ts": "", "new.ts": "", "mid.ts": "", "notes.md": "" });
    utimesSync(t.at("old.ts"), new Date("2001-01-01"), new Date("2001-01-01"));
    utimesSync(t.at("mid.ts"), new Date("2010-01-01"), new Date("2010-01-01"));
    utimesSync(t.at("new.ts"), new Date("2020-01-01"), new Date("2020-01-01"));
    const out = await runTool(globTool, { pattern: "**/*.ts" }, t.ctx);
    expect(out.content).toBe(["./new.ts", "./mid.ts", "./old.ts"].join("\n"));
  });

  it("says when nothing matched", async () => {
    t.write({ "a.ts": "" });
    const out = await runTool(globTool, { pattern: "**/*.py" }, t.ctx);
    expect(out.content).toMatch(/^No files matched/);
  });

  it("honours root, nested, negated and info/exclude ignore rules; includes hidden files but not .git", async () => {
    writeRepo();
    const ts = await runTool(globTool, { pattern: "**/*.ts" }, t.ctx);
    expect(paths(ts.content)).toEqual([".github/ci.ts", "a.ts", "src/c.ts", "sub/root-only.ts", "sub/x.ts"].map((p) => `./${p}`).sort());
    const logs = await runTool(globTool, { pattern: "**/*.log" }, t.ctx);
    expect(paths(logs.content)).toEqual(["./keep.log", "./sub/important.log"]);
  });

  it("does not descend into ignored directories", async () => {
    writeRepo();
    const spy = vi.spyOn(IgnoreChecker.prototype, "isIgnored");
    await runTool(globTool, { pattern: "**/*" }, t.ctx);
    const checked = spy.mock.calls.map((call) => call[0]);
    expect(checked).toContain(t.at("node_modules"));
    expect(checked.some((p) => p.startsWith(t.at("node_modules") + "/"))).toBe(false);
    expect(checked.some((p) => p.startsWith(t.at("build") + "/"))).toBe(false);
  });

  it("honours a .gitignore above the search root, up to the git root", async () => {
    t.write({ ".git/HEAD": "", ".gitignore": "*.gen.ts\n", "pkg/a.ts": "", "pkg/a.gen.ts": "" });
    const out = await runTool(globTool, { pattern: "**/*.ts", paths: "pkg" }, t.ctx);
    expect(out.content).toBe(t.at("pkg/a.ts"));
  });

  it("honours .gitignore outside a git repository too", async () => {
    t.write({ ".gitignore": "dist/\n", "dist/a.js": "", "src/a.js": "" });
    const out = await runTool(globTool, { pattern: "**/*.js" }, t.ctx);
    expect(out.content).toBe("./src/a.js");
  });

  it("searches an ignored directory named explicitly", async () => {
    writeRepo();
    const out = await runTool(globTool, { pattern: "**/*.ts", paths: "node_modules/pkg" }, t.ctx);
    expect(out.content).toBe(t.at("node_modules/pkg/index.ts"));
  });

  it("searches several directories and rejects a missing one", async () => {
    t.write({ "a/x.md": "", "b/y.md": "", "c/z.md": "" });
    const out = await runTool(globTool, { pattern: "*.md", paths: ["a", t.at("b")] }, t.ctx);
    expect(paths(out.content)).toEqual([t.at("a/x.md"), t.at("b/y.md")]);
    const error = await runToolError(globTool, { pattern: "*.md", paths: "nope" }, t.ctx);
    expect(error.code).toBe("not_found");
  });

  it("caps the number of results with a note", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < GLOB_MAX_RESULTS + 5; i++) files[`many/f${i}.txt`] = "";
    t.write(files);
    const out = await runTool(globTool, { pattern: "**/*.txt" }, t.ctx);
    expect(out.content).toContain(`capped at ${GLOB_MAX_RESULTS}`);
    expect(out.content.length).toBeLessThan(21 * 1024);
  });

  it("stops when the signal has fired", async () => {
    t.write({ "a.ts": "" });
    const error = await runToolError(globTool, { pattern: "**/*.ts" }, abortedContext(t.ctx));
    expect(error.code).toBe("aborted");
  });

  it("asks for read permission on the search root", async () => {
    const one = await globTool.permission({ pattern: "*.ts" }, { cwd: t.cwd, toolCallId: "c" });
    expect(one).toMatchObject({ kind: "read", path: t.cwd });
    const two = await globTool.permission({ pattern: "*.ts", paths: ["a/b", "a/c"] }, { cwd: t.cwd, toolCallId: "c" });
    expect(two).toMatchObject({ kind: "read", path: t.at("a") });
  });
});

describe("file walker", () => {
  it("lists non-ignored files in sorted order and stops at maxFiles", async () => {
    writeRepo();
    const all = await listFiles(t.cwd);
    expect(all.truncated).toBe(false);
    const rel = all.files.map((f) => f.slice(t.cwd.length + 1));
    expect(rel).toEqual([".github/ci.ts", ".gitignore", "a.ts", "keep.log", "src/c.ts", "sub/.gitignore", "sub/important.log", "sub/root-only.ts", "sub/x.ts"]);
    const some = await listFiles(t.cwd, { maxFiles: 3 });
    expect(some.files).toHaveLength(3);
    expect(some.truncated).toBe(true);
  });

  it("throws when aborted", async () => {
    t.write({ "a.ts": "" });
    const controller = new AbortController();
    controller.abort();
    await expect(listFiles(t.cwd, { signal: controller.signal })).rejects.toThrow(/aborted/);
  });
});

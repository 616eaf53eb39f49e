import { existsSync, readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTool } from "../../src/tools/create.js";
import { editTool } from "../../src/tools/edit.js";
import { makeToolContext, runTool, runToolError, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(() => {
  t = makeToolContext();
});
afterEach(() => t.cleanup());

const read = (rel: string): string => readFileSync(t.at(rel), "utf8");
const perm = { toolCallId: "c1" };

describe("create", () => {
  it("creates a file and reports its size, diff and line count", async () => {
    const text = "export const a = 1;\nexport const b = 2;\n";
    const out = await runTool(createTool, { path: t.at("a.ts"), file_text: text }, t.ctx);
    expect(read("a.ts")).toBe(text);
    expect(out.content).toBe(`Created file ${t.at("a.ts")} with ${text.length} characters`);
    expect(out.detailedContent).toContain("+export const a = 1;");
    expect(out.detailedContent).toContain("@@ -0,0 +1,2 @@");
    expect(out.codeChange).toEqual({ path: t.at("a.ts"), linesAdded: 2, linesRemoved: 0 });
  });

  it("creates missing parent directories", async () => {
    await runTool(createTool, { path: "deep/er/new.md", file_text: "# hi\n" }, t.ctx);
    expect(read("deep/er/new.md")).toBe("# hi\n");
  });

  it("fails when the file already exists, leaving it untouched", async () => {
    t.write({ "keep.txt": "original" });
    const error = await runToolError(createTool, { path: t.at("keep.txt"), file_text: "replaced" }, t.ctx);
    expect(error.code).toBe("already_exists");
    expect(error.message).toMatch(/already exists/);
    expect(error.message).toMatch(/edit tool/);
    expect(read("keep.txt")).toBe("original");
  });

  it("fails when a directory is at the path", async () => {
    t.write({ "dir/x": "" });
    const error = await runToolError(createTool, { path: t.at("dir"), file_text: "x" }, t.ctx);
    expect(error.message).toMatch(/a directory already exists/);
  });

  it("asks for write permission with the diff and new contents", async () => {
    const request = await createTool.permission({ path: "n.txt", file_text: "one\n" }, { cwd: t.cwd, ...perm });
    expect(request).toMatchObject({
      kind: "write",
      fileName: t.at("n.txt"),
      intention: `Create ${t.at("n.txt")}`,
      newFileContents: "one\n",
    });
    expect(request && "diff" in request ? request.diff : "").toContain("+one");
    expect(existsSync(t.at("n.txt"))).toBe(false);
  });
});

describe("edit", () => {
  const source = "function a() {\n  return 1;\n}\n\nfunction b() {\n  return 1;\n}\n";

  it("replaces the one occurrence and reports the diff and line counts", async () => {
    t.write({ "f.js": source });
    const out = await runTool(
      editTool,
      { path: t.at("f.js"), old_str: "function a() {\n  return 1;", new_str: "function a() {\n  const x = 2;\n  return x;" },
      t.ctx,
    );
    expect(read("f.js")).toBe(source.replace("function a() {\n  return 1;", "function a() {\n  const x = 2;\n  return x;"));
    expect(out.content).toBe(`File ${t.at("f.js")} updated with changes.`);
    expect(out.detailedContent).toContain("-  return 1;");
    expect(out.detailedContent).toContain("+  const x = 2;");
    expect(out.codeChange).toEqual({ path: t.at("f.js"), linesAdded: 2, linesRemoved: 1 });
  });

  it("reports zero matches with a hint, changing nothing", async () => {
    t.write({ "f.js": source });
    const error = await runToolError(editTool, { path: t.at("f.js"), old_str: "return 2;", new_str: "x" }, t.ctx);
    expect(error.code).toBe("no_match");
    expect(error.message).toMatch(/No match found/);
    expect(error.message).toMatch(/whitespace/);
    expect(read("f.js")).toBe(source);
  });

  it("says how many times a non-unique old_str matched", async () => {
    t.write({ "f.js": source + "function c() {\n  return 1;\n}\n" });
    const error = await runToolError(editTool, { path: t.at("f.js"), old_str: "  return 1;", new_str: "  return 0;" }, t.ctx);
    expect(error.code).toBe("multiple_matches");
    expect(error.message).toMatch(/matched 3 times/);
    expect(error.message).toMatch(/more surrounding lines/);
  });

  it("deletes old_str when new_str is omitted, and inserts $ patterns literally", async () => {
    t.write({ "f.txt": "keep\nremove me\nkeep too\n" });
    await runTool(editTool, { path: t.at("f.txt"), old_str: "remove me\n" }, t.ctx);
    expect(read("f.txt")).toBe("keep\nkeep too\n");
    await runTool(editTool, { path: t.at("f.txt"), old_str: "keep too", new_str: "cost: $& $1 $$" }, t.ctx);
    expect(read("f.txt")).toBe("keep\ncost: $& $1 $$\n");
  });

  it("creates a missing file when old_str is empty", async () => {
    const out = await runTool(editTool, { path: "new/dir/file.txt", old_str: "", new_str: "fresh\n" }, t.ctx);
    expect(read("new/dir/file.txt")).toBe("fresh\n");
    expect(out.codeChange).toEqual({ path: t.at("new/dir/file.txt"), linesAdded: 1, linesRemoved: 0 });
  });

  it("rejects an empty old_str on an existing file, and a non-empty one on a missing file", async () => {
    t.write({ "f.txt": "content" });
    const empty = await runToolError(editTool, { path: t.at("f.txt"), new_str: "x" }, t.ctx);
    expect(empty.code).toBe("empty_old_str");
    expect(read("f.txt")).toBe("content");
    const missing = await runToolError(editTool, { path: t.at("missing.txt"), old_str: "a", new_str: "b" }, t.ctx);
    expect(missing.code).toBe("not_found");
    expect(missing.message).toMatch(/does not exist/);
  });

  it("rejects identical old_str and new_str", async () => {
    t.write({ "f.txt": "same" });
    const error = await runToolError(editTool, { path: t.at("f.txt"), old_str: "same", new_str: "same" }, t.ctx);
    expect(error.code).toBe("no_change");
  });

  it("matches LF old_str against a CRLF file and keeps CRLF endings", async () => {
    t.write({ "win.txt": "one\r\ntwo\r\nthree\r\n" });
    await runTool(editTool, { path: t.at("win.txt"), old_str: "one\ntwo", new_str: "uno\ndos" }, t.ctx);
    expect(read("win.txt")).toBe("uno\r\ndos\r\nthree\r\n");
  });

  it("applies several edits in order, each on the previous result", async () => {
    t.write({ "f.txt": "alpha\n" });
    await runTool(editTool, { path: t.at("f.txt"), old_str: "alpha", new_str: "beta" }, t.ctx);
    await runTool(editTool, { path: t.at("f.txt"), old_str: "beta", new_str: "gamma" }, t.ctx);
    expect(read("f.txt")).toBe("gamma\n");
  });

  it("computes the permission diff from the current file, or an empty one when the edit cannot apply", async () => {
    t.write({ "f.txt": "a\nb\n" });
    const ok = await editTool.permission({ path: "f.txt", old_str: "b", new_str: "c" }, { cwd: t.cwd, ...perm });
    expect(ok).toMatchObject({ kind: "write", fileName: t.at("f.txt"), intention: `Edit ${t.at("f.txt")}`, newFileContents: "a\nc\n" });
    const okDiff = ok && "diff" in ok ? ok.diff : "";
    expect(okDiff).toContain("-b");
    expect(okDiff).toContain("+c");
    const bad = await editTool.permission({ path: "f.txt", old_str: "zzz", new_str: "c" }, { cwd: t.cwd, ...perm });
    expect(bad).toEqual({ kind: "write", fileName: t.at("f.txt"), diff: "", intention: `Edit ${t.at("f.txt")}` });
    expect(read("f.txt")).toBe("a\nb\n");
  });
});

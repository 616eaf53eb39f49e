import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { fileTools } from "../../src/tools/file-tools.js";
import { resolveToolPath, commonAncestor } from "../../src/tools/resolve-path.js";
import { LARGE_FILE_BYTES, linesOf, viewTool } from "../../src/tools/view.js";
import { makeToolContext, runTool, runToolError, type TestToolContext } from "../support/tool-context.js";

let t: TestToolContext;
beforeEach(() => {
  t = makeToolContext();
});
afterEach(() => t.cleanup());

const lines = (n: number, make = (i: number) => `line ${i}`): string => Array.from({ length: n }, (_, i) => make(i + 1)).join("\n") + "\n";

describe("view: files", () => {
  it("prefixes each line with its 1-based number", async () => {
    t.write({ "a.ts": "import x from 'y';\n\nconst z = 1;\n" });
    const out = await runTool(viewTool, { path: t.at("a.ts") }, t.ctx);
    expect(out.content).toBe("1. import x from 'y';\n2. \n3. const z = 1;");
  });

  it("resolves a relative path against cwd", async () => {
    t.write({ "src/b.txt": "hello" });
    const out = await runTool(viewTool, { path: "src/b.txt" }, t.ctx);
    expect(out.content).toBe("1. hello");
  });

  it("shows a view_range, with -1 meaning the end of the file", async () => {
    t.write({ "f.txt": lines(10) });
    const mid = await runTool(viewTool, { path: t.at("f.txt"), view_range: [3, 5] }, t.ctx);
    expect(mid.content).toBe("3. line 3\n4. line 4\n5. line 5");
    const tail = await runTool(viewTool, { path: t.at("f.txt"), view_range: [9, -1] }, t.ctx);
    expect(tail.content).toBe("9. line 9\n10. line 10");
  });

  it("clamps an end beyond the file and says how many lines there are", async () => {
    t.write({ "f.txt": lines(4) });
    const out = await runTool(viewTool, { path: t.at("f.txt"), view_range: [3, 50] }, t.ctx);
    expect(out.content).toContain("3. line 3\n4. line 4");
    expect(out.content).toContain("has 4 lines");
  });

  it("rejects invalid ranges, giving the line count", async () => {
    t.write({ "f.txt": lines(4) });
    const beyond = await runToolError(viewTool, { path: t.at("f.txt"), view_range: [7, -1] }, t.ctx);
    expect(beyond.code).toBe("invalid_range");
    expect(beyond.message).toMatch(/only 4 lines/);
    const reversed = await runToolError(viewTool, { path: t.at("f.txt"), view_range: [3, 2] }, t.ctx);
    expect(reversed.message).toMatch(/end must be at least start/);
    const zero = await runToolError(viewTool, { path: t.at("f.txt"), view_range: [0, 2] }, t.ctx);
    expect(zero.message).toMatch(/start must be 1 or more/);
  });

  it("reports a missing path clearly", async () => {
    const error = await runToolError(viewTool, { path: t.at("nope.txt") }, t.ctx);
    expect(error.code).toBe("not_found");
    expect(error.message).toContain(t.at("nope.txt"));
    expect(error.message).toMatch(/does not exist/);
  });

  it("says a binary file is binary instead of dumping it", async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0x41, 0x42]);
    t.write({ "img.png": bytes });
    const out = await runTool(viewTool, { path: t.at("img.png") }, t.ctx);
    expect(out.content).toMatch(/binary file \(9 B\)/);
    expect(out.content).toMatch(/cannot be shown as text/);
    expect(out.content).not.toContain("\u0000");
  });

  it("reports an empty file", async () => {
    t.write({ "empty.txt": "" });
    const out = await runTool(viewTool, { path: t.at("empty.txt") }, t.ctx);
    expect(out.content).toMatch(/is empty \(0 lines\)/);
  });

  it("truncates at 20 KB and says which view_range shows the rest", async () => {
    t.write({ "big.txt": lines(3000, (i) => `this is line number ${i} of the file`) });
    const out = await runTool(viewTool, { path: t.at("big.txt") }, t.ctx);
    const [body, note] = out.content.split("\n\n[Output truncated");
    expect(note).toBeDefined();
    expect(body!.length).toBeLessThanOrEqual(20 * 1024);
    const lastShown = Number(/(\d+)\. [^\n]*$/.exec(body!)?.[1]);
    expect(lastShown).toBeGreaterThan(100);
    expect(lastShown).toBeLessThan(3000);
    expect(note).toContain(`of 3000`);
    expect(note).toContain(`view_range [${lastShown + 1}, -1]`);
    const next = await runTool(viewTool, { path: t.at("big.txt"), view_range: [lastShown + 1, lastShown + 1] }, t.ctx);
    expect(next.content).toBe(`${lastShown + 1}. this is line number ${lastShown + 1} of the file`);
  });

  it("cuts a single line longer than 20 KB and says so", async () => {
    t.write({ "min.js": "x".repeat(50_000) + "\nsecond\n" });
    const out = await runTool(viewTool, { path: t.at("min.js") }, t.ctx);
    expect(out.content.length).toBeLessThan(21 * 1024);
    expect(out.content).toContain("line 1 was cut short");
    expect(out.content).toContain("view_range [2, -1]");
  });

  it("refuses a file over 10 MB unless forced or ranged", async () => {
    writeFileSync(t.at("huge.log"), Buffer.alloc(LARGE_FILE_BYTES + 10, "a\n"));
    const error = await runToolError(viewTool, { path: t.at("huge.log") }, t.ctx);
    expect(error.code).toBe("file_too_large");
    expect(error.message).toMatch(/forceReadLargeFiles/);
    const forced = await runTool(viewTool, { path: t.at("huge.log"), forceReadLargeFiles: true }, t.ctx);
    expect(forced.content.startsWith("1. a\n2. a")).toBe(true);
    expect(forced.content).toMatch(/\[Output truncated at 20 KB: showed lines 1-\d+\. Use view_range \[\d+, -1\]/);
    const ranged = await runTool(viewTool, { path: t.at("huge.log"), view_range: [5, 6] }, t.ctx);
    expect(ranged.content).toBe("5. a\n6. a");
  });
});

// A file up to 1 MB is read whole and split by linesOf; a larger one is streamed through readline. The two must agree.
const LINE_ENDINGS = ["", "a", "a\n", "a\r\n", "a\rb", "a\r", "\n", "\r\n", "\r", "\n\n", "a\r\r\nb", "a\n\rb\r\n\r\n", "\uFEFFa\r\nb", "x\u2028y\n", "é\r\nü"];

async function readlineLines(text: string, pieceSize: number): Promise<string[]> {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += pieceSize) pieces.push(text.slice(i, i + pieceSize));
  const out: string[] = [];
  for await (const line of createInterface({ input: Readable.from(pieces), crlfDelay: Infinity })) out.push(line);
  return out;
}

describe("view: a file read whole splits as readline does", () => {
  it.each(LINE_ENDINGS)("%j", async (text) => {
    for (const pieceSize of [1, 2, 3, 1000]) expect(linesOf(text), `pieces of ${pieceSize}`).toEqual(await readlineLines(text, pieceSize));
  });

  it("shows a streamed file (over 1 MB) as it shows the same lines read whole", async () => {
    const body = "one\r\ntwo\rthree\n\nfour";
    const padding = "x".repeat(1024 * 1024);
    writeFileSync(t.at("small.txt"), `${body}\n${padding.slice(0, 10)}\n`);
    writeFileSync(t.at("large.txt"), `${body}\n${padding}\n`);
    const small = await runTool(viewTool, { path: t.at("small.txt"), view_range: [1, 5] }, t.ctx);
    const large = await runTool(viewTool, { path: t.at("large.txt"), view_range: [1, 5] }, t.ctx);
    expect(small.content).toBe("1. one\n2. two\n3. three\n4. \n5. four");
    expect(large.content).toBe(small.content);
  });
});

describe("view: directories", () => {
  it("lists two levels deep, hidden entries skipped, directories suffixed with /", async () => {
    t.write({
      "README.md": "x",
      ".env": "SECRET=1",
      ".hidden/inside.txt": "x",
      "src/index.ts": "x",
      "src/.secret.ts": "x",
      "src/lib/deep.ts": "x",
      "src/lib/deeper/deepest.ts": "x",
    });
    const out = await runTool(viewTool, { path: t.cwd }, t.ctx);
    expect(out.content).toBe("README.md\nsrc/\nsrc/index.ts\nsrc/lib/");
    expect(out.content).not.toContain(".env");
    expect(out.content).not.toContain("deep.ts");
  });

  it("rejects a view_range on a directory", async () => {
    const error = await runToolError(viewTool, { path: t.cwd, view_range: [1, 2] }, t.ctx);
    expect(error.code).toBe("invalid_range");
  });
});

describe("view: metadata", () => {
  it("asks for read permission on the absolute path and titles with the range", async () => {
    const request = await viewTool.permission({ path: "src/a.ts" }, { cwd: t.cwd, toolCallId: "c1" });
    expect(request).toEqual({ kind: "read", path: t.at("src/a.ts"), intention: `Read ${t.at("src/a.ts")}` });
    expect(viewTool.title?.({ path: "/x/a.ts", view_range: [3, -1] })).toBe("/x/a.ts (lines 3-end)");
    expect(viewTool.kind).toBe("read");
    expect(viewTool.readOnly).toBe(true);
  });

  it("resolves ~ and keeps absolute paths", () => {
    expect(resolveToolPath("~/notes.md", "/somewhere")).toBe(path.join(os.homedir(), "notes.md"));
    expect(resolveToolPath("/abs/file", "/somewhere")).toBe("/abs/file");
    expect(resolveToolPath("rel/file", "/somewhere")).toBe("/somewhere/rel/file");
    expect(commonAncestor(["/a/b/c", "/a/b/d/e"])).toBe("/a/b");
    expect(commonAncestor(["/a/bc", "/a/b"])).toBe("/a");
  });

  it("every file tool's schema converts to JSON Schema", () => {
    expect(fileTools.map((tool) => tool.name)).toEqual(["view", "create", "edit", "grep", "glob"]);
    for (const tool of fileTools) {
      const schema = z.toJSONSchema(tool.parameters) as { type: string; properties: Record<string, { description?: string }> };
      expect(schema.type).toBe("object");
      for (const [key, prop] of Object.entries(schema.properties)) {
        expect(prop.description, `${tool.name}.${key} has a description`).toBeTruthy();
      }
    }
  });
});

import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_FILE_BYTES, MAX_FILE_LINES, MAX_TOTAL_BYTES, taggedFilesBlock } from "../../src/core/attachments.js";
import { tempDir } from "../support/temp-dirs.js";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the <tagged_files> block", () => {
  it("describes a binary file as binary with its size, a text file by its lines", () => {
    dir = tempDir("attachments-");
    // A PNG-like header: NUL bytes, and newlines that would make it "13 lines".
    const binary = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
      Buffer.from("\n".repeat(12)),
      Buffer.alloc(2000, 7),
    ]);
    writeFileSync(path.join(dir, "logo.png"), binary);
    writeFileSync(path.join(dir, "notes.txt"), "a\nb\nc");
    const block = taggedFilesBlock(
      [
        { type: "file", path: "logo.png" },
        { type: "file", path: "notes.txt" },
      ],
      dir,
    );
    expect(block).toContain(`* ${path.join(dir, "logo.png")} (binary, 2.0 KB)`);
    expect(block).not.toMatch(/logo\.png \(\d+ lines\)/);
    expect(block).toContain(`* ${path.join(dir, "notes.txt")} (3 lines)`);
  });

  it("counts lines across reads of a large text file", () => {
    dir = tempDir("attachments-");
    writeFileSync(path.join(dir, "big.txt"), "line\n".repeat(50_000));
    expect(taggedFilesBlock([{ type: "file", path: "big.txt" }], dir)).toContain("(50000 lines)");
  });
});

describe("the tagged files' contents", () => {
  const block = (names: string[]) =>
    taggedFilesBlock(
      names.map((name) => ({ type: "file" as const, path: name })),
      dir,
    );

  it("sends a small text file whole, after the list (a file without a last newline too)", () => {
    dir = tempDir("attachments-");
    writeFileSync(path.join(dir, "a.ts"), "export const a = 1;\nexport const b = 2;");
    const text = block(["a.ts"]);
    expect(text).toBe(
      `<tagged_files>\n* ${path.join(dir, "a.ts")} (2 lines)\n</tagged_files>\n\n` +
        `<file_contents path="${path.join(dir, "a.ts")}">\nexport const a = 1;\nexport const b = 2;\n</file_contents>`,
    );
  });

  it("cuts a long file at a line within the limits and tells the model to read the rest with view", () => {
    dir = tempDir("attachments-");
    writeFileSync(path.join(dir, "many.txt"), Array.from({ length: 2000 }, (_, i) => `row ${i + 1}`).join("\n") + "\n");
    writeFileSync(path.join(dir, "wide.txt"), Array.from({ length: 100 }, (_, i) => `${i + 1} ${"é".repeat(400)}`).join("\n") + "\n");
    const many = block(["many.txt"]);
    expect(many).toContain(`<file_contents path="${path.join(dir, "many.txt")}" shown_lines="1-${MAX_FILE_LINES}" total="2000 lines">\nrow 1\n`);
    expect(many).toContain(`row ${MAX_FILE_LINES}\n</file_contents>`);
    expect(many).not.toContain(`row ${MAX_FILE_LINES + 1}\n`);
    expect(many).toContain(`Only lines 1-${MAX_FILE_LINES} of ${path.join(dir, "many.txt")} (2000 lines) are above: read the rest with the view tool`);
    // By bytes: whole lines only, never half a character.
    const wide = block(["wide.txt"]);
    const shown = /<file_contents [^>]*>\n([\s\S]*)<\/file_contents>/.exec(wide)?.[1] ?? "";
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(MAX_FILE_BYTES);
    expect(shown).not.toContain("\uFFFD");
    expect(
      shown
        .split("\n")
        .slice(0, -1)
        .every((line) => line.endsWith("é".repeat(400))),
    ).toBe(true);
    expect(wide).toMatch(/shown_lines="1-\d+" total="100 lines"/);
  });

  it("sends no text for a binary file or a picture, and lists files past the total budget by path only", () => {
    dir = tempDir("attachments-");
    writeFileSync(path.join(dir, "blob.bin"), Buffer.from([1, 0, 2, 0]));
    // 24 KB each: every one is cut at about 20 KB, so three fill the 60 KB of the message.
    for (const name of ["one", "two", "three", "four"]) writeFileSync(path.join(dir, `${name}.txt`), `${name.padEnd(59, ".")}\n`.repeat(400));
    const text = block(["blob.bin", "one.txt", "two.txt", "three.txt", "four.txt"]);
    expect(text).not.toContain(`<file_contents path="${path.join(dir, "blob.bin")}"`);
    expect(text.match(/<file_contents /g)).toHaveLength(Math.ceil(MAX_TOTAL_BYTES / MAX_FILE_BYTES));
    expect(text).toContain(`The contents of ${path.join(dir, "four.txt")} are not included`);
    const picture = taggedFilesBlock([{ type: "file", path: "one.txt", mediaType: "image/png" }], dir);
    expect(picture).not.toContain("<file_contents");
  });
});

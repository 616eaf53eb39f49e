import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { taggedFilesBlock } from "../../src/core/attachments.js";

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the <tagged_files> block", () => {
  it("describes a binary file as binary with its size, a text file by its lines", () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "attachments-"));
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
    dir = mkdtempSync(path.join(os.tmpdir(), "attachments-"));
    writeFileSync(path.join(dir, "big.txt"), "line\n".repeat(50_000));
    expect(taggedFilesBlock([{ type: "file", path: "big.txt" }], dir)).toContain("(50000 lines)");
  });
});

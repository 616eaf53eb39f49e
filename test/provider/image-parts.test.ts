import { utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { userContentParts } from "../../src/provider/image-parts.js";
import { tempDir } from "../support/temp-dirs.js";

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
const urlOf = (file: string) => (userContentParts("look", [{ path: file, mediaType: "image/png" }])[1] as { image_url: { url: string } }).image_url.url;

describe("image parts", () => {
  it("encodes an unchanged file once (same size and mtime) and again when it changes", () => {
    const file = path.join(tempDir("image-parts-"), "shot.png");
    const stamp = 1_700_000_000; // whole seconds, so setting it again gives the same mtime exactly
    writeFileSync(file, Buffer.concat([PNG, Buffer.from("AAAA")]));
    utimesSync(file, stamp, stamp);
    const first = urlOf(file);
    // Same size and mtime: the encoded image is reused, so the bytes written behind its back are not read.
    writeFileSync(file, Buffer.concat([PNG, Buffer.from("BBBB")]));
    utimesSync(file, stamp, stamp);
    expect(urlOf(file)).toBe(first);
    // A real change (another size) is read again.
    writeFileSync(file, Buffer.concat([PNG, Buffer.from("CCCCCC")]));
    const changed = urlOf(file);
    expect(changed).not.toBe(first);
    expect(
      Buffer.from(changed.split(",")[1] as string, "base64")
        .subarray(-6)
        .toString(),
    ).toBe("CCCCCC");
  });
});

import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/util/digest.js";

const openSsl = (data: string | Uint8Array): string => createHash("sha256").update(data).digest("hex");

describe("sha256Hex", () => {
  // Short inputs are hashed in JavaScript, long ones by node:crypto: every cache key and snapshot name must be the
  // same whichever made it, on both sides of the switch.
  it.each([
    ["empty", ""],
    ["ascii", "abc"],
    ["multi-byte text", "naïve ✓ 日本語 🙂"],
    ["one short of the switch", "x".repeat(16 * 1024 - 1)],
    ["at the switch", "é".repeat(16 * 1024)],
    ["past the switch", "y".repeat(16 * 1024 + 1)],
    ["long text", "z".repeat(1_000_000)],
  ])("matches node:crypto for %s", (_name, value) => {
    expect(sha256Hex(value)).toBe(openSsl(value));
  });

  it("matches node:crypto for bytes, short and long", () => {
    for (const size of [0, 1, 63, 64, 65, 16 * 1024, 16 * 1024 + 1, 200_000]) {
      const bytes = Uint8Array.from({ length: size }, (_, index) => (index * 31 + 7) & 0xff);
      expect(sha256Hex(bytes)).toBe(openSsl(bytes));
    }
  });
});

/**
 * Random identifiers from the kernel's random source (src/util/random-id.ts): the same shapes node:crypto's
 * randomUUID and randomBytes give, drawn from a pool the source refills.
 */
import { randomUUID as cryptoUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { randomBytes, randomIdsFrom, randomUUID } from "../../src/util/random-id.js";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("random identifiers", () => {
  it("are version 4 UUIDs like node:crypto's, and do not repeat", () => {
    expect(cryptoUUID()).toMatch(UUID_V4);
    const ids = Array.from({ length: 5000 }, () => randomUUID());
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("set the version and variant bits and keep every other bit of the source", () => {
    const ids = randomIdsFrom((into) => into.fill(0xff));
    expect(ids.randomUUID()).toBe("ffffffff-ffff-4fff-bfff-ffffffffffff");
    const zeros = randomIdsFrom((into) => into.fill(0));
    expect(zeros.randomUUID()).toBe("00000000-0000-4000-8000-000000000000");
  });

  it("draw each byte of the source once, refilling the pool when it runs out", () => {
    let next = 0;
    let fills = 0;
    const ids = randomIdsFrom((into) => {
      fills++;
      for (let i = 0; i < into.length; i++) into[i] = next++ & 0xff;
    });
    const first = ids.randomBytes(16);
    expect([...first]).toEqual(Array.from({ length: 16 }, (_, i) => i));
    // 2,048 bytes a fill: 127 more UUIDs use up the first, the next byte comes from a second.
    for (let i = 0; i < 127; i++) ids.randomUUID();
    expect(fills).toBe(1);
    expect(ids.randomBytes(1)[0]).toBe(2048 & 0xff);
    expect(fills).toBe(2);
    // More than a pool's worth at once is read straight from the source.
    expect(ids.randomBytes(5000)).toHaveLength(5000);
  });

  it("give copies, not views of the pool", () => {
    const a = randomBytes(12);
    const copy = Buffer.from(a);
    randomBytes(2000);
    expect(a).toEqual(copy);
  });
});

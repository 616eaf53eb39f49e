/**
 * isoTime (src/util/iso-time.ts) writes what Date#toISOString writes, for every kind of time value: the
 * epoch, leap days, the ends of years and of the four-digit range, before 1970, random times, and the values
 * it leaves to Date (six-digit years, invalid times).
 */
import { describe, expect, it } from "vitest";
import { isoTime } from "../../src/util/iso-time.js";

const fixed = [
  0,
  -1,
  1,
  951_782_400_000, // 2000-02-29
  4_107_542_399_999, // 2100-02-28T23:59:59.999Z
  Date.UTC(1969, 11, 31, 23, 59, 59, 999),
  Date.UTC(0, 0, 1) - 0, // 1900 (Date.UTC maps 0 to 1900)
  new Date("0000-01-01T00:00:00.000Z").getTime(),
  new Date("9999-12-31T23:59:59.999Z").getTime(),
  new Date("+010000-01-01T00:00:00.000Z").getTime(),
  new Date("-000001-12-31T23:59:59.999Z").getTime(),
  8.64e15,
  -8.64e15,
];

describe("isoTime", () => {
  it.each(fixed)("writes %d as toISOString does", (ms) => {
    expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it("agrees with toISOString over random times from year 0 to 9999", () => {
    const low = new Date("0000-01-01T00:00:00.000Z").getTime();
    const high = new Date("9999-12-31T23:59:59.999Z").getTime();
    for (let index = 0; index < 20_000; index++) {
      const ms = Math.floor(low + Math.random() * (high - low));
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it("throws for an invalid time, as toISOString does", () => {
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
  });

  it("is now when given nothing", () => {
    const before = Date.now();
    const now = Date.parse(isoTime());
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});

/**
 * Holds a reader that skips zod (src/util/plain-object.ts) to the schema it stands in for: every value it takes,
 * the schema takes too and gives back the same object, field order included.
 */
import { expect } from "vitest";
import { plainObject, type PlainShape } from "../../src/util/plain-object.js";

/** Field names in order, nested: what "the same object" means here beyond toEqual. */
export function shapeOf(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return typeof value;
  if (Array.isArray(value)) return value.map(shapeOf);
  return Object.entries(value).map(([key, field]) => [key, shapeOf(field)]);
}

/** Checks each value against the schema; returns how many the reader took and how many the schema refused. */
export function checkPlainReader(
  values: readonly unknown[],
  plain: PlainShape,
  schema: { safeParse(value: unknown): { success: boolean; data?: unknown } },
): { taken: number; refused: number } {
  let taken = 0;
  let refused = 0;
  for (const value of values) {
    const parsed = schema.safeParse(value);
    const read = plainObject(value, plain);
    if (!parsed.success) refused++;
    if (read === undefined) continue;
    taken++;
    expect(parsed.success, JSON.stringify(value)).toBe(true);
    expect(read, JSON.stringify(value)).toEqual(parsed.data);
    expect(shapeOf(read), JSON.stringify(value)).toEqual(shapeOf(parsed.data));
  }
  return { taken, refused };
}

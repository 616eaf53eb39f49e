/**
 * Reading a request's params without zod where zod would give back the same object: a session's create and a
 * send are read once each, and building the schemas for them (the session configuration's 45 fields) and running
 * them cost ~3 ms of CPU before an SDK application's first answer (docs/benchmarks.md, "The SDK row's margin (stop
 * 31)"). A value is taken here only when every field the schema knows is absent or has a plain type this reader
 * can check exactly; anything else (a wrong type, a field only the schema can read) goes through the schema, so
 * errors, defaults and coercions stay zod's.
 */
import { isRecord } from "../provider/plain-fields.js";

/**
 * What a field of a loose object is, for the plain reader: a primitive ("string" required, "string?" optional),
 * one of a list of strings (an optional enum), a nested loose object (optional), or "schema": read by the
 * schema whenever it is present.
 */
export type PlainField = "string" | "string?" | "boolean?" | "number?" | readonly string[] | PlainShape | "schema";
export interface PlainShape {
  readonly [field: string]: PlainField;
}

function plainValue(value: unknown, field: PlainField): { ok: true; value: unknown } | undefined {
  if (field === "schema") return undefined;
  if (field === "string" || field === "string?") return typeof value === "string" ? { ok: true, value } : undefined;
  if (field === "boolean?") return typeof value === "boolean" ? { ok: true, value } : undefined;
  if (field === "number?") return typeof value === "number" && Number.isFinite(value) ? { ok: true, value } : undefined;
  if (Array.isArray(field)) return typeof value === "string" && field.includes(value) ? { ok: true, value } : undefined;
  const nested = plainObject(value, field as PlainShape);
  return nested ? { ok: true, value: nested } : undefined;
}

/**
 * `value` as zod's looseObject of `shape` returns it (a copy: the shape's fields in the shape's order, then the
 * others as they came), or undefined when the schema has to read it.
 */
export function plainObject(value: unknown, shape: PlainShape): Record<string, unknown> | undefined {
  // A "__proto__" key (JSON.parse makes it an own field) is the schema's to copy.
  if (!isRecord(value) || Object.getPrototypeOf(value) !== Object.prototype || Object.hasOwn(value, "__proto__")) return undefined;
  const out: Record<string, unknown> = {};
  for (const name in shape) {
    const field = shape[name] as PlainField;
    const given = value[name];
    if (given === undefined) {
      if (field === "string" || name in value) return undefined;
      continue;
    }
    const read = plainValue(given, field);
    if (!read) return undefined;
    out[name] = read.value;
  }
  for (const name in value) if (!(name in shape)) out[name] = value[name];
  return out;
}

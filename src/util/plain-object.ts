/**
 * Reading a value without zod where zod's loose object would give back the same object: an SDK application's
 * session create and send (src/server/wire.ts), and each configured MCP server (src/mcp/mcp-config.ts), are read
 * once each, and building their schemas and running them cost milliseconds before the first request
 * (docs/benchmarks.md, "The SDK row's margin (stop 31)", "The MCP row, stop 31"). A value is taken here only when
 * every field the schema knows is absent or has a plain type this reader can check exactly; anything else (a
 * wrong type, a field only the schema can read) goes through the schema, so errors, defaults and coercions stay
 * zod's.
 */

/** Every element a string (a hole too is not: `every` would skip it). */
function allStrings(list: readonly unknown[]): boolean {
  for (let index = 0; index < list.length; index++) if (typeof list[index] !== "string") return false;
  return true;
}

/** An object that is not an array (the one test every reader here starts with). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An object JSON.parse could have made, with no own "__proto__" field (the schema's to copy). */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && Object.getPrototypeOf(value) === Object.prototype && !Object.hasOwn(value, "__proto__");
}

/**
 * What a field of a loose object is, for the plain reader: a primitive ("string" required, "string?" optional,
 * "positive?" a number above 0), a list of strings ("strings?"), a record of strings ("string-record?") or of anything
 * ("record?"), one of a
 * list of strings (an optional enum), a nested loose object (optional), or "schema": read by the schema whenever it
 * is present.
 */
export type PlainField =
  "string" | "string?" | "boolean?" | "number?" | "positive?" | "strings?" | "string-record?" | "record?" | readonly string[] | PlainShape | "schema";
export interface PlainShape {
  readonly [field: string]: PlainField;
}

function plainValue(value: unknown, field: PlainField): { ok: true; value: unknown } | undefined {
  if (field === "schema") return undefined;
  if (field === "string" || field === "string?") return typeof value === "string" ? { ok: true, value } : undefined;
  if (field === "boolean?") return typeof value === "boolean" ? { ok: true, value } : undefined;
  if (field === "number?") return typeof value === "number" && Number.isFinite(value) ? { ok: true, value } : undefined;
  if (field === "positive?") return typeof value === "number" && Number.isFinite(value) && value > 0 ? { ok: true, value } : undefined;
  if (field === "strings?") return Array.isArray(value) && allStrings(value) ? { ok: true, value: [...value] } : undefined;
  if (field === "record?") return isPlainRecord(value) ? { ok: true, value: { ...value } } : undefined;
  if (field === "string-record?") {
    if (!isPlainRecord(value) || !Object.values(value).every((item) => typeof item === "string")) return undefined;
    return { ok: true, value: { ...value } };
  }
  if (Array.isArray(field)) return typeof value === "string" && field.includes(value) ? { ok: true, value } : undefined;
  const nested = plainObject(value, field as PlainShape);
  return nested ? { ok: true, value: nested } : undefined;
}

/**
 * `value` as zod's looseObject of `shape` returns it (a copy: the shape's fields in the shape's order, then the
 * others as they came), or undefined when the schema has to read it.
 */
export function plainObject(value: unknown, shape: PlainShape): Record<string, unknown> | undefined {
  if (!isPlainRecord(value)) return undefined;
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

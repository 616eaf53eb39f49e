/**
 * Type tests for reading a wire's streamed pieces without zod (the hot path: one piece per token). A reader
 * takes a piece as it is only when every field its schema looks at already has the schema's type, so zod
 * would give back the same values; anything else goes through the schema.
 */
import { isRecord } from "../util/plain-object.js";

export { isRecord };

/** A text field: a string, null or absent. */
export function isText(value: unknown): boolean {
  return value === undefined || value === null || typeof value === "string";
}

/** A count field: a finite number, null or absent. */
export function isCount(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "number" && Number.isFinite(value));
}

/** Null or absent: a field whose presence sends the piece through the schema. */
export function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

/** Whether every one of `fields` of `record` is text. */
export function allText(record: Record<string, unknown>, fields: readonly string[]): boolean {
  for (const field of fields) if (!isText(record[field])) return false;
  return true;
}

/** `build`'s result, made at the first call: a wire's zod schemas, which a stream read without zod never builds. */
export function onFirstUse<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

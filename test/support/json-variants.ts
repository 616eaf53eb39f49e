/**
 * Variants of a JSON value with one field changed to each JSON kind (or removed): for holding a reader that
 * skips zod to the schema it stands in for (test/provider/chat-chunk-check.test.ts, wire-event-check.test.ts).
 */

/** Values of every JSON kind, and absence (undefined: the field is removed). */
export const JSON_KINDS: unknown[] = [undefined, null, "", "text", 0, 1, -1, 1.5, true, {}, [], ["x"], { a: 1 }];

/** A copy of `base` with the field at `path` set to `value` (removed for undefined); missing parents are made. */
export function withPath(base: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  if (path.length === 0) return value === undefined ? copy : value;
  let target = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof target[key] !== "object" || target[key] === null) target[key] = typeof key === "number" ? [] : {};
    target = target[key] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1] as string | number;
  if (value === undefined) delete target[last];
  else target[last] = value;
  return copy;
}

/** `base`, and for each path a variant per JSON kind. */
export function variantsOf(base: unknown, paths: (string | number)[][]): unknown[] {
  return [base, ...paths.flatMap((path) => JSON_KINDS.map((kind) => withPath(base, path, kind)))];
}

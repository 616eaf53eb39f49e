/**
 * A tool call's arguments as the model sent them (a JSON string) become a value, within bounds. Everything
 * downstream (the schema check, the event log's JSON.stringify, the history sent back) walks the value
 * recursively, so arguments nested 100,000 deep would overflow the stack there; they are refused here,
 * before parsing, with a result that tells the model what to fix.
 */

/** Deeper than any tool's schema needs; shallow enough for every recursive walk. */
export const MAX_ARGUMENT_DEPTH = 64;
/** Larger than any file a model should write in one call. */
export const MAX_ARGUMENT_CHARS = 1_000_000;
/** What is kept of refused arguments in the log and the history. */
const KEPT_CHARS = 2_000;

export type ParsedArguments =
  | { ok: true; value: unknown }
  /** `kept`: the arguments as recorded (the raw text, shortened when it is the problem). */
  | { ok: false; code: "invalid_json" | "arguments_too_deep" | "arguments_too_large"; message: string; kept: string };

/** The deepest nesting of objects and arrays in JSON text, counting brackets outside strings. */
export function nestingDepth(raw: string, stopAt = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < raw.length; index++) {
    const char = raw.charCodeAt(index);
    if (inString) {
      if (char === 0x5c)
        index++; // backslash: skip the escaped character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > stopAt) return deepest;
    } else if (char === 0x7d || char === 0x5d) depth--;
  }
  return deepest;
}

function shorten(raw: string): string {
  return raw.length <= KEPT_CHARS ? raw : `${raw.slice(0, KEPT_CHARS)}… [${raw.length - KEPT_CHARS} more characters not kept]`;
}

export function parseToolArguments(toolName: string, raw: string): ParsedArguments {
  if (raw.trim() === "") return { ok: true, value: {} };
  if (raw.length > MAX_ARGUMENT_CHARS) {
    return {
      ok: false,
      code: "arguments_too_large",
      kept: shorten(raw),
      message: `The arguments for ${toolName} were ${raw.length} characters long; the limit is ${MAX_ARGUMENT_CHARS}. Split the work into smaller calls.`,
    };
  }
  if (nestingDepth(raw, MAX_ARGUMENT_DEPTH) > MAX_ARGUMENT_DEPTH) {
    return {
      ok: false,
      code: "arguments_too_deep",
      kept: shorten(raw),
      message: `The arguments for ${toolName} were nested more than ${MAX_ARGUMENT_DEPTH} levels deep, so they were not read. Send one flat JSON object matching the tool's schema.`,
    };
  }
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    return {
      ok: false,
      code: "invalid_json",
      kept: raw,
      message: `The arguments for ${toolName} were not valid JSON. Send them as one JSON object matching the tool's schema. Received: ${raw.slice(0, 500)}`,
    };
  }
}

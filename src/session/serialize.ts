/**
 * One event per line. JSON.stringify already escapes control characters and lone surrogates; U+2028 and
 * U+2029 are escaped too, because some line readers treat them as line breaks.
 */
export function serializeEventLine(event: unknown): string {
  return `${JSON.stringify(event)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029")}\n`;
}

/**
 * `@path` mentions in the composer: the mention under the cursor (for the picker), ranking of candidate
 * files. What a mention attaches to the prompt is decided by the core (core/mentions.ts).
 */

export interface Mention {
  /** Index of the `@`. */
  start: number;
  /** End of the mention word. */
  end: number;
  /** What follows the `@`, up to the cursor. */
  query: string;
}

/** How far back from the cursor a mention is looked for (keeps a giant line cheap). */
const MENTION_WINDOW = 1024;

/** The `@word` the cursor is in or just after; the `@` must start a word (so `me@host` is not one). */
export function findMention(text: string, cursor: number): Mention | undefined {
  const from = Math.max(0, cursor - MENTION_WINDOW);
  const before = text.slice(from, cursor);
  const start = from + Math.max(before.lastIndexOf(" "), before.lastIndexOf("\n"), before.lastIndexOf("\t")) + 1;
  if (start === from && from > 0) return undefined;
  if (text[start] !== "@") return undefined;
  const after = /^\S*/.exec(text.slice(cursor, cursor + MENTION_WINDOW))?.[0] ?? "";
  return { start, end: cursor + after.length, query: text.slice(start + 1, cursor) };
}

function isSubsequence(needle: string, haystack: string): boolean {
  let at = 0;
  for (const char of haystack) if (char === needle[at] && ++at === needle.length) return true;
  return needle.length === 0;
}

/**
 * Files matching `query`, best first: the file name contains it, then the path contains it, then its
 * letters appear in order (fuzzy). Within a tier shorter paths come first. Case-insensitive.
 */
export function rankFiles(files: readonly string[], query: string, limit = 50): string[] {
  const wanted = query.toLowerCase();
  const scored: { file: string; tier: number }[] = [];
  for (const file of files) {
    const lower = file.toLowerCase();
    const base = lower.slice(lower.lastIndexOf("/") + 1);
    const tier = base.includes(wanted) ? 0 : lower.includes(wanted) ? 1 : isSubsequence(wanted, lower) ? 2 : -1;
    if (tier >= 0) scored.push({ file, tier });
  }
  scored.sort((a, b) => a.tier - b.tier || a.file.length - b.file.length || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return scored.slice(0, limit).map((entry) => entry.file);
}

/** The mention token to insert for a picked path. */
export function mentionToken(file: string): string {
  return `@${file}`;
}

/**
 * Ctrl+R reverse search over the prompt history, as a pure state machine: typing refines the query (keeping
 * the current match when it still matches), Ctrl+R again goes to the next older match, and a query with no
 * match is marked failing while the last match stays shown.
 */

export interface ReverseSearch {
  query: string;
  /** Index into the history entries (oldest first) of the match shown, if any. */
  match: number | undefined;
  failing: boolean;
}

export const startSearch: ReverseSearch = { query: "", match: undefined, failing: false };

/** The newest entry at or before `from` that contains `query` (case-insensitive). */
export function findOlder(entries: readonly string[], query: string, from: number): number | undefined {
  if (query === "") return undefined;
  const wanted = query.toLowerCase();
  for (let index = Math.min(from, entries.length - 1); index >= 0; index--) {
    if ((entries[index] as string).toLowerCase().includes(wanted)) return index;
  }
  return undefined;
}

function refine(entries: readonly string[], search: ReverseSearch, query: string): ReverseSearch {
  if (query === "") return { query, match: undefined, failing: false };
  const match = findOlder(entries, query, search.match ?? entries.length - 1) ?? findOlder(entries, query, entries.length - 1);
  return match === undefined ? { query, match: search.match, failing: true } : { query, match, failing: false };
}

/** Typed characters extend the query. */
export function searchType(entries: readonly string[], search: ReverseSearch, text: string): ReverseSearch {
  return refine(entries, search, search.query + text);
}

/** Backspace shortens the query and searches again from the newest entry. */
export function searchBackspace(entries: readonly string[], search: ReverseSearch): ReverseSearch {
  const query = Array.from(search.query).slice(0, -1).join("");
  return refine(entries, { ...search, match: undefined }, query);
}

/** Ctrl+R again: the next older match (failing, and staying put, when there is none). */
export function searchOlder(entries: readonly string[], search: ReverseSearch): ReverseSearch {
  if (search.query === "" || search.match === undefined) return search;
  const match = findOlder(entries, search.query, search.match - 1);
  return match === undefined ? { ...search, failing: true } : { ...search, match, failing: false };
}

/** The line shown while searching: "(reverse-i-search)`query': match". */
export function searchLine(entries: readonly string[], search: ReverseSearch): string {
  const label = search.failing ? "(failed reverse-i-search)" : "(reverse-i-search)";
  const entry = search.match === undefined ? "" : (entries[search.match] ?? "");
  return `${label}\`${search.query}': ${entry.slice(0, 1000).replace(/\n/g, " ⏎ ")}`;
}

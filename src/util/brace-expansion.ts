/** Expands `{a,b}` alternatives (nested allowed) into separate patterns. */
export function expandBraces(pattern: string, limit = 256): string[] {
  const open = pattern.indexOf("{");
  if (open === -1) return [pattern];
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "{") depth++;
    else if (ch === "," && depth === 1) commas.push(i);
    else if (ch === "}" && --depth === 0) {
      if (commas.length === 0) return [pattern];
      const bounds = [open, ...commas, i];
      const head = pattern.slice(0, open);
      const tail = pattern.slice(i + 1);
      const out: string[] = [];
      for (let k = 0; k + 1 < bounds.length && out.length < limit; k++) {
        const part = pattern.slice((bounds[k] ?? 0) + 1, bounds[k + 1]);
        out.push(...expandBraces(head + part + tail, limit));
      }
      return out.slice(0, limit);
    }
  }
  return [pattern];
}

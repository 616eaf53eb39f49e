/** The `/` palette's matching: which commands a typed `/query` shows, best first. */

export interface PaletteCommand {
  name: string;
  aliases?: readonly string[];
  description: string;
  argsHint?: string;
}

/** The query while the palette applies: the text starts with `/` and has no whitespace yet. */
export function paletteQuery(text: string): string | undefined {
  return /^\/\S*$/.test(text) ? text.slice(1) : undefined;
}

/**
 * Exact name or alias first, then prefix matches on the name, then on an alias, then substrings of either;
 * registry order within each group. An empty query lists every command.
 */
export function matchCommands<C extends PaletteCommand>(commands: readonly C[], query: string): C[] {
  const wanted = query.toLowerCase();
  if (wanted === "") return [...commands];
  const rank = (command: C): number => {
    const name = command.name.toLowerCase();
    const aliases = (command.aliases ?? []).map((alias) => alias.toLowerCase());
    if (name === wanted || aliases.includes(wanted)) return 0;
    if (name.startsWith(wanted)) return 1;
    if (aliases.some((alias) => alias.startsWith(wanted))) return 2;
    if (name.includes(wanted) || aliases.some((alias) => alias.includes(wanted))) return 3;
    return -1;
  };
  return commands
    .map((command, order) => ({ command, order, rank: rank(command) }))
    .filter((entry) => entry.rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .map((entry) => entry.command);
}

/** The submitted line for a picked command: `/name` plus whatever followed the typed command word. */
export function commandLine(text: string, name: string): string {
  const rest = /^\/\S*([\s\S]*)$/.exec(text)?.[1] ?? "";
  return `/${name}${rest}`;
}

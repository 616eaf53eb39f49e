/**
 * Reads a command line the way getopt-style programs do, for programs whose options name files and URLs
 * (curl, wget, httpie, aria2c, nc): bundled short options (`-sLo out`, `-qO-`), a value attached or in the
 * next word, `--long value` and `--long=value`, and unique prefixes of long options (`--upload-fi`), which
 * curl and GNU getopt both accept. Where a word could be read two ways, it is read as taking a value only
 * if the program really defines such an option: a URL swallowed as an option's value would go unchecked.
 */

export interface OptionSpec {
  /** Short letter → long name (valued or not); a letter missing here is a flag. */
  short: Readonly<Record<string, string>>;
  /** Long names that take a value. */
  valued: ReadonlySet<string>;
  /** Long names without a value that are prefixes of valued ones (`--head` is not `--header`). */
  flags?: ReadonlySet<string>;
}

export interface ParsedOption {
  /** The long name ("output"), or `-x` for an unknown short letter. */
  name: string;
  value?: string;
  /** The word the value is in. */
  index: number;
}

export interface ParsedCommand {
  options: ParsedOption[];
  positionals: { index: number; text: string }[];
}

function longName(spec: OptionSpec, written: string): { name: string; valued: boolean } {
  if (spec.valued.has(written)) return { name: written, valued: true };
  if (spec.flags?.has(written)) return { name: written, valued: false };
  // A unique prefix is the option; an ambiguous one makes the program refuse to run, so either reading is safe.
  const candidates = [...spec.valued].filter((name) => name.startsWith(written));
  return candidates.length > 0 ? { name: candidates[0] as string, valued: true } : { name: written, valued: false };
}

export function parseOptions(args: readonly string[], spec: OptionSpec): ParsedCommand {
  const options: ParsedOption[] = [];
  const positionals: { index: number; text: string }[] = [];
  let ended = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (ended || arg === "-" || !arg.startsWith("-")) {
      positionals.push({ index, text: arg });
      continue;
    }
    if (arg === "--") {
      ended = true;
      continue;
    }
    if (arg.startsWith("--")) {
      const equals = arg.indexOf("=");
      const { name, valued } = longName(spec, arg.slice(2, equals > 0 ? equals : undefined));
      if (equals > 0) options.push({ name, value: arg.slice(equals + 1), index });
      else if (valued && index + 1 < args.length) options.push({ name, value: args[++index] as string, index });
      else options.push({ name, index });
      continue;
    }
    for (let at = 1; at < arg.length; at++) {
      const letter = arg[at] as string;
      const name = spec.short[letter] ?? `-${letter}`;
      if (!spec.valued.has(name)) {
        options.push({ name, index });
        continue;
      }
      const rest = arg.slice(at + 1);
      if (rest !== "") options.push({ name, value: rest, index });
      else if (index + 1 < args.length) options.push({ name, value: args[++index] as string, index });
      else options.push({ name, index });
      break;
    }
  }
  return { options, positionals };
}

/** The value of the last use of an option, if any. */
export function lastValue(parsed: ParsedCommand, ...names: string[]): string | undefined {
  return parsed.options.filter((option) => names.includes(option.name) && option.value !== undefined).at(-1)?.value;
}

export function hasOption(parsed: ParsedCommand, ...names: string[]): boolean {
  return parsed.options.some((option) => names.includes(option.name));
}

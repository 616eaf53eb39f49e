/**
 * Where programs that write files put what they write: cp/mv/install/ln's last operand or `-t DIR`,
 * rsync/scp's destination, patch's file (or, when the patch names them, files only known when it runs),
 * sed -i's files, sort -o, tar -cf, uniq's and xxd's output (curl's and wget's are in fetchers.ts). These are
 * writes: approving the program is not approving where it writes, so each destination goes through the write
 * rules and the path gate.
 */

export interface Destinations {
  /** Indexes (into the arguments after the program) of words that are destinations. */
  indices: Set<number>;
  /** Destinations written inside an option word (`--target-directory=DIR`, `-oFILE`), with that word's index. */
  inline: { index: number; text: string }[];
  /**
   * The directory under which the program writes files the command does not name (`patch -p1 < fix.diff`,
   * `tar -xf a.tar`: the names come from the patch or the archive; both refuse `..` and absolute names).
   */
  unnamedUnder?: string;
}

/** Options that take the next word as their value, per program (so the value is not taken for an operand). */
const VALUED: Record<string, RegExp> = {
  cp: /^(-S|--suffix)$/,
  mv: /^(-S|--suffix)$/,
  ln: /^(-S|--suffix)$/,
  install: /^(-m|--mode|-o|--owner|-g|--group|-S|--suffix)$/,
  rsync:
    /^(-e|--rsh|-f|--filter|--exclude|--include|--exclude-from|--include-from|--files-from|-T|--temp-dir|--partial-dir|--backup-dir|--compare-dest|--copy-dest|--link-dest|--chmod|--chown|-B|--block-size|--port|--password-file|--log-file)$/,
  scp: /^-[cFiJlPoS]$/,
  patch: /^(-[pidorBDFVYz]|--(strip|input|directory|output|reject-file|prefix|ifdef|fuzz|version-control|basename-prefix|suffix))$/,
  sed: /^(-e|--expression|-f|--file|-l|--line-length)$/,
};

/** The non-option words, with their indexes, skipping the values of valued options. */
function operandsOf(program: string, args: readonly string[]): { index: number; text: string }[] {
  const valued = VALUED[program];
  const operands: { index: number; text: string }[] = [];
  let optionsEnded = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (!optionsEnded && arg === "--") {
      optionsEnded = true;
      continue;
    }
    if (!optionsEnded && arg.startsWith("-") && arg !== "-") {
      if (valued?.test(arg)) index++;
      continue;
    }
    operands.push({ index, text: arg });
  }
  return operands;
}

/** `-t DIR`, `-tDIR`, `--target-directory DIR`, `--target-directory=DIR` (likewise -o, --output…). */
function valuedOption(args: readonly string[], short: RegExp | undefined, long: readonly string[], into: Destinations): boolean {
  let found = false;
  args.forEach((arg, index) => {
    const equals = arg.indexOf("=");
    if (arg.startsWith("--") && equals > 0 && long.includes(arg.slice(0, equals))) {
      into.inline.push({ index, text: arg.slice(equals + 1) });
      found = true;
    } else if (long.includes(arg) && args[index + 1] !== undefined) {
      into.indices.add(index + 1);
      found = true;
    } else if (short && !arg.startsWith("--")) {
      const match = short.exec(arg);
      if (!match) return;
      found = true;
      const rest = arg.slice((match[0] as string).length);
      if (rest !== "") into.inline.push({ index, text: rest });
      else if (args[index + 1] !== undefined) into.indices.add(index + 1);
    }
  });
  return found;
}

/** The value of `-X VALUE`, `-XVALUE`, `--long VALUE` or `--long=VALUE` (the last one given). */
function optionValue(args: readonly string[], short: string, long: string | undefined): string | undefined {
  let value: string | undefined;
  args.forEach((arg, index) => {
    if (arg === short || arg === long) value = args[index + 1] ?? value;
    else if (long && arg.startsWith(`${long}=`)) value = arg.slice(long.length + 1);
    else if (!arg.startsWith("--") && arg.startsWith(short) && arg.length > short.length) value = arg.slice(short.length);
  });
  return value;
}

function dirname(text: string): string {
  const slash = text.lastIndexOf("/");
  return slash < 0 ? "." : text.slice(0, slash) || "/";
}

/** git subcommands that write files they are told to: config -f, archive -o, format-patch -o, bundle, clone. */
function gitDestinations(args: readonly string[], result: Destinations): void {
  const sub = args[0];
  // `git config -f FILE name value` writes FILE (reading it with --get or --list does not).
  const reading = args.some((arg) => /^(--get|--get-all|--get-regexp|--get-urlmatch|--list|-l|get|list)$/.test(arg));
  if (sub === "config" && !reading) valuedOption(args, /^-f/, ["--file"], result);
  if (sub === "archive") valuedOption(args, /^-o/, ["--output"], result);
  else if (sub === "format-patch") {
    const directory = optionValue(args, "-o", "--output-directory");
    if (directory !== undefined) result.unnamedUnder = directory;
  } else if (sub !== "config") valuedOption(args, undefined, ["--output"], result);
  if (sub === "bundle" && args[1] === "create" && args[2] !== undefined) result.indices.add(2);
  if (sub === "clone") {
    const operands = args
      .slice(1)
      .filter(
        (arg, index) =>
          !arg.startsWith("-") &&
          !/^(-o|--origin|-b|--branch|-u|--upload-pack|--reference|--separate-git-dir|--depth|-c|--config|--template|-j|--jobs)$/.test(args[index] ?? ""),
      );
    if (operands.length >= 2) result.indices.add(args.lastIndexOf(operands.at(-1) as string));
  }
}

export function destinationsOf(program: string, args: readonly string[]): Destinations {
  const result: Destinations = { indices: new Set(), inline: [] };
  const operands = () => operandsOf(program, args);
  const last = () => {
    const all = operands();
    if (all.length >= 2) result.indices.add((all.at(-1) as { index: number }).index);
  };
  switch (program) {
    case "cp":
    case "mv":
    case "ln":
    case "install":
      if (program === "install" && args.some((arg) => arg === "-d" || arg === "--directory" || /^-[a-zA-Z]*d[a-zA-Z]*$/.test(arg))) {
        for (const operand of operands()) result.indices.add(operand.index);
      } else {
        const before = result.inline.length;
        const targeted = valuedOption(args, /^-[a-zA-Z]*t/, ["--target-directory"], result);
        if (!targeted) last();
        // Into a directory, each source lands as DIR/<its name>: rules on file names see those paths too.
        const directory = targeted ? (result.inline[before]?.text ?? args[[...result.indices][0] ?? -1]) : args[[...result.indices][0] ?? -1];
        if (directory !== undefined) {
          for (const source of operands()) {
            if (result.indices.has(source.index) || source.text === directory) continue;
            result.inline.push({ index: source.index, text: `${directory.replace(/\/+$/, "")}/${source.text.split("/").filter(Boolean).at(-1) ?? ""}` });
          }
        }
      }
      break;
    case "rsync":
    case "scp":
      last();
      break;
    case "patch": {
      if (valuedOption(args, /^-o/, ["--output"], result)) break;
      const directory = optionValue(args, "-d", "--directory");
      const original = operands()[0];
      if (original && directory === undefined) result.indices.add(original.index);
      else result.unnamedUnder = directory ?? ".";
      break;
    }
    case "sed":
    case "gsed": {
      if (!args.some((arg) => /^(-i|--in-place)/.test(arg) || /^-[a-zA-Z]*i/.test(arg))) break;
      const all = operands();
      const hasScriptOption = args.some((arg) => /^(-e|--expression|-f|--file)/.test(arg));
      for (const operand of hasScriptOption ? all : all.slice(1)) result.indices.add(operand.index);
      break;
    }
    case "sort":
      valuedOption(args, /^-[a-zA-Z]*o/, ["--output"], result);
      break;
    case "tar":
    case "gtar":
    case "bsdtar": {
      // `tar czf out.tgz dir`: the old style bundles the letters in the first word, f's value is the next.
      const bundle = args[0] !== undefined && !args[0].startsWith("-") ? args[0] : undefined;
      const creating = args.includes("--create") || args.some((arg) => /^-[a-zA-Z]*c/.test(arg)) || (bundle?.includes("c") ?? false);
      const extracting =
        args.includes("--extract") || args.includes("--get") || args.some((arg) => /^-[a-zA-Z]*x/.test(arg)) || (bundle?.includes("x") ?? false);
      if (extracting) result.unnamedUnder = optionValue(args, "-C", "--directory") ?? ".";
      if (!creating) break;
      if (bundle?.includes("f") && args[1] !== undefined) result.indices.add(1);
      else valuedOption(args, /^-[a-zA-Z]*f/, ["--file"], result);
      break;
    }
    case "unzip":
      result.unnamedUnder = optionValue(args, "-d", undefined) ?? ".";
      break;
    case "git":
      gitDestinations(args, result);
      break;
    case "split":
    case "csplit":
      // split's last operand and csplit's -f are the prefix of the files it writes.
      if (program === "csplit") result.unnamedUnder = dirname(optionValue(args, "-f", "--prefix") ?? "xx");
      else last();
      break;
    case "sponge":
    case "ed":
      for (const operand of operands()) result.indices.add(operand.index);
      break;
    case "cpio":
      if (args.some((arg) => arg === "--extract" || /^-[a-zA-Z]*i/.test(arg))) result.unnamedUnder = optionValue(args, "-D", "--directory") ?? ".";
      break;
    case "7z":
    case "7za":
    case "7zz":
      if (args[0] === "x" || args[0] === "e") result.unnamedUnder = optionValue(args, "-o", undefined) ?? ".";
      else if (args[0] === "a" || args[0] === "u") last();
      break;
    case "openssl":
      valuedOption(args, undefined, ["-out"], result);
      break;
    case "gpg":
    case "gpg2":
      valuedOption(args, /^-o/, ["--output"], result);
      break;
    case "uniq":
    case "xxd": {
      const all = operands();
      if (all.length >= 2) result.indices.add((all[1] as { index: number }).index);
      break;
    }
    default:
      break;
  }
  return result;
}

/**
 * A rule does not approve code the agent wrote. `shell(npm test)` approved the package's scripts as they
 * were; once the agent has rewritten package.json in this session, `npm test` runs the agent's program, which
 * no rule approved. This finds, for one command, the files the agent changed (and no person approved in a
 * dialog) that decide what it runs, from the table in runner-files.ts. Pure: the session's record of changed
 * files and the command's directory are facts gathered beforehand.
 */
import path from "node:path";
import { matchesFromStart } from "./rules.js";
import { RUNNER_FILES, type RunnerFiles } from "./runner-files.js";
import { programName } from "./shell/read-only.js";

/** A file a tool call changes, as the path gate resolved it. */
export interface FileChange {
  path: string;
  /** A directory under which the call writes files whose names are not known (tar -x, a copy into it, a glob). */
  anyName?: boolean;
}

/** A file the agent changed in this session; `byUser` when a person approved that change in a dialog. */
export interface ChangedFile extends FileChange {
  byUser: boolean;
}

export interface CodeContext {
  homeDir: string;
  /** The repository's git directory and hooks directory (core.hooksPath). */
  git?: { gitDir: string; hooksDir: string };
}

/** `python3.12` is python, `nodejs` is node: the names the table uses. */
function canonical(program: string): string {
  const patterns: [RegExp, string][] = [
    [/^(python|pypy)[0-9.]*$/, "python"],
    [/^(nodejs|node[0-9.]*)$/, "node"],
    [/^perl[0-9.]*$/, "perl"],
    [/^ruby[0-9.]*$/, "ruby"],
    [/^php[0-9.]*$/, "php"],
  ];
  return patterns.find(([pattern]) => pattern.test(program))?.[1] ?? program;
}

/** The program a command really runs: `python -m pytest` is pytest. */
function runnerOf(argv: readonly string[]): { program: string; args: readonly string[] } {
  const program = canonical(programName(argv[0] ?? ""));
  const module = program === "python" ? argv.findIndex((arg, index) => index > 0 && arg === "-m") : -1;
  if (module > 0 && argv[module + 1] !== undefined) return { program: (argv[module + 1] as string).split(".")[0] as string, args: argv.slice(module + 2) };
  return { program, args: argv.slice(1) };
}

/** Values of `-f X`, `-fX` (one-letter options), `--file X` and `--file=X`. */
function optionValues(args: readonly string[], names: readonly string[]): string[] {
  const values: string[] = [];
  args.forEach((arg, index) => {
    const next = args[index + 1];
    if (names.includes(arg) && next !== undefined) values.push(next);
    for (const name of names) {
      if (name.startsWith("--") && arg.startsWith(`${name}=`)) values.push(arg.slice(name.length + 1));
      else if (!name.startsWith("--") && name.length === 2 && arg.startsWith(name) && arg.length > 2 && !arg.startsWith("--")) values.push(arg.slice(2));
    }
  });
  return values;
}

/** The script a shell or interpreter is given: its first operand (after the subcommand, for `deno run`). */
function scriptOf(row: RunnerFiles, args: readonly string[]): string[] {
  let rest = args;
  if (row.subcommand !== undefined) {
    const at = args.findIndex((arg) => !arg.startsWith("-"));
    if (at < 0 || args[at] !== row.subcommand) return [];
    rest = args.slice(at + 1);
  }
  // node's preloads run before the script: `node -r ./x.js`, `--import`, `--loader`.
  const preloads = optionValues(rest, ["-r", "--require", "--import", "--loader", "--experimental-loader"]);
  const script = rest.find(
    (arg, index) => !arg.startsWith("-") && !/^(-r|--require|--import|--loader|--experimental-loader|-W|-X)$/.test(rest[index - 1] ?? ""),
  );
  return [...preloads, ...(script !== undefined ? [script] : [])];
}

const within = (inner: string, outer: string) => inner === outer || inner.startsWith(outer.endsWith(path.sep) ? outer : outer + path.sep);
const parts = (relative: string) => relative.split(/[\\/]+/).filter((part) => part !== "" && part !== ".");

/** Where and what one command reads to know what to run. */
interface Lookup {
  /** Where it looks (undefined: only known when it runs, so anywhere). */
  dir: string | undefined;
  /** Patterns relative to `dir`, a directory above it or one below it. */
  patterns: string[][];
  /** Patterns relative to the home directory. */
  home: string[][];
  /** Files named on the command line (the program itself when given as a path, a script, `-f file`). */
  named: string[];
  /** The repository's own hooks and configuration, for git. */
  git: string[];
}

function lookupFor(argv: readonly string[], dir: string | undefined, context: CodeContext): Lookup {
  const { program, args } = runnerOf(argv);
  const rows = RUNNER_FILES.filter((row) => row.programs.includes(program));
  let where = dir;
  for (const row of rows) for (const value of optionValues(args, row.dirOptions ?? [])) where = where === undefined ? undefined : path.resolve(where, value);
  const named = [
    ...(argv[0]?.includes("/") ? [argv[0]] : []),
    ...rows.flatMap((row) => [...optionValues(args, row.fileOptions ?? []), ...(row.script ? scriptOf(row, args) : [])]),
  ];
  const gitFiles =
    program === "git" && context.git ? [context.git.hooksDir, path.join(context.git.gitDir, "config"), path.join(context.git.gitDir, "config.worktree")] : [];
  return {
    dir: where,
    patterns: rows.flatMap((row) => (row.files ?? []).map(parts)),
    home: rows.flatMap((row) => (row.home ?? []).map(parts)),
    named: named.map((file) => (path.isAbsolute(file) || where === undefined ? file : path.resolve(where, file))),
    git: gitFiles,
  };
}

/** Whether a directory the runner could look in (`base`) is where it runs, above it, or below it. */
function looksIn(base: string, dir: string | undefined): boolean {
  return dir === undefined || within(dir, base) || within(base, dir);
}

function fileDefines(file: string, lookup: Lookup, homeDir: string): boolean {
  const named = (candidate: string) => (path.isAbsolute(candidate) ? file === candidate : file.endsWith(path.sep + path.normalize(candidate)));
  if (lookup.named.some(named)) return true;
  if (lookup.git.some((entry) => within(file, entry))) return true;
  const components = parts(file);
  // Where the pattern would be anchored: as many components up as it has, or (with `**`) any of them.
  const anchoredAt = (start: number, pattern: readonly string[]) =>
    start >= 0 && matchesFromStart(pattern, components.slice(start)) && looksIn(path.join(path.sep, ...components.slice(0, start)), lookup.dir);
  for (const pattern of lookup.patterns) {
    if (!pattern.includes("**")) {
      if (anchoredAt(components.length - pattern.length, pattern)) return true;
    } else if (components.some((_, start) => anchoredAt(start, pattern))) return true;
  }
  const fromHome = path.relative(homeDir, file);
  return !fromHome.startsWith("..") && !path.isAbsolute(fromHome) && lookup.home.some((pattern) => matchesFromStart(pattern, parts(fromHome)));
}

/** Whether a directory (as components below where the pattern is anchored) could hold a file the pattern names. */
function couldHold(directory: readonly string[], pattern: readonly string[]): boolean {
  for (const [index, name] of directory.entries()) {
    const want = pattern[index];
    if (want === undefined) return false;
    if (want === "**") return true;
    if (!matchesFromStart([want], [name])) return false;
  }
  return directory.length < pattern.length;
}

/** A directory the agent wrote unnamed files under: it could hold a file the command reads. */
function directoryDefines(written: string, lookup: Lookup, homeDir: string): boolean {
  if (lookup.named.some((file) => path.isAbsolute(file) && within(file, written))) return true;
  if (lookup.git.some((entry) => within(entry, written) || within(written, entry))) return true;
  // Where the command runs or above it, any of its files could be there; below it, only a file in a folder of its own.
  const holds = (patterns: readonly string[][], dir: string | undefined) =>
    patterns.length > 0 &&
    (dir === undefined || within(dir, written) || (within(written, dir) && patterns.some((pattern) => couldHold(parts(path.relative(dir, written)), pattern))));
  return holds(lookup.patterns, lookup.dir) || holds(lookup.home, homeDir);
}

/**
 * The changed files, not approved by a person, that decide what this command runs. `dir` is where it runs
 * (undefined when only known at run time).
 */
export function agentWrittenCode(argv: readonly string[], dir: string | undefined, changed: readonly ChangedFile[], context: CodeContext): ChangedFile[] {
  const unapproved = changed.filter((file) => !file.byUser);
  if (unapproved.length === 0) return [];
  const lookup = lookupFor(argv, dir, context);
  return unapproved.filter((file) => (file.anyName ? directoryDefines(file.path, lookup, context.homeDir) : fileDefines(file.path, lookup, context.homeDir)));
}

/** For reasons: "/ws/package.json" or "files under /ws". */
export function describeChange(file: ChangedFile): string {
  return file.anyName ? `files under ${file.path}` : file.path;
}

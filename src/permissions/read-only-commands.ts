/**
 * Programs, and uses of programs, that only read. A command is approved without asking only when every one
 * of its segments is listed here (and nothing writes through a redirection).
 */

/** Programs that only read whatever their arguments (options that write are handled below). */
const READ_ONLY_PROGRAMS = new Set([
  "cat", "ls", "head", "tail", "wc", "pwd", "echo", "printf", "grep", "egrep", "fgrep", "rg", "find", "file",
  "stat", "du", "df", "tree", "which", "whoami", "date", "uname", "env", "printenv", "basename", "dirname",
  "realpath", "readlink", "diff", "cmp", "sort", "uniq", "cut", "tr", "nl", "less", "more", "true", "false",
  "test", "[", "id", "hostname", "seq", "md5sum", "sha1sum", "sha256sum", "cksum", "column", "jq", "type",
  "command", "fold", "expand", "rev", "tac", "od", "hexdump", "xxd", "strings", "sleep", "ps", "uptime",
]);

/** Programs whose first non-option argument is a subcommand that names the action. */
const SUBCOMMAND_PROGRAMS = new Set(["git", "npm", "pnpm", "yarn", "cargo", "go", "docker", "kubectl", "gh", "pip", "dotnet", "make"]);

const READ_ONLY_SUBCOMMANDS: Record<string, Set<string>> = {
  git: new Set(["status", "log", "diff", "show", "branch", "rev-parse", "ls-files", "blame", "describe", "remote", "tag", "shortlog", "grep", "ls-tree", "cat-file", "reflog"]),
  npm: new Set(["ls", "list", "view", "outdated", "why", "--version", "-v"]),
  cargo: new Set(["tree", "metadata", "--version"]),
  go: new Set(["version", "env", "list"]),
  docker: new Set(["ps", "images", "version", "info"]),
  kubectl: new Set(["get", "describe", "version"]),
};

/** Options that make an otherwise read-only program write or execute. */
const WRITING_OPTIONS: Record<string, RegExp> = {
  find: /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/,
  sort: /^(-o|--output)/,
  git: /^(-c|--output|--exec-path|--config-env)/,
  sed: /^-i/,
  env: /^-/,
};

/** The identifier a rule such as `shell(git push)` matches: the program, plus its subcommand if it has them. */
export function commandIdentifier(argv: readonly string[]): string {
  const program = argv[0] ?? "";
  if (!SUBCOMMAND_PROGRAMS.has(program)) return program;
  const sub = argv.slice(1).find((arg) => !arg.startsWith("-"));
  return sub ? `${program} ${sub}` : program;
}

export function isReadOnlyInvocation(argv: readonly string[]): boolean {
  const program = argv[0];
  if (!program) return false;
  const args = argv.slice(1);
  const writing = WRITING_OPTIONS[program];
  if (writing && args.some((arg) => writing.test(arg))) return false;
  // `env` with arguments runs another program.
  if (program === "env" && args.length > 0) return false;
  if (program === "command" && args[0] !== "-v" && args[0] !== "-V") return false;
  if (READ_ONLY_PROGRAMS.has(program)) return true;
  const subcommands = READ_ONLY_SUBCOMMANDS[program];
  if (!subcommands) return false;
  const sub = args.find((arg) => !arg.startsWith("-")) ?? args[0];
  if (sub === undefined || !subcommands.has(sub)) return false;
  if (program === "git" && sub === "branch") return args.every((arg) => arg === "branch" || /^(-a|-r|-v|-vv|--list|--show-current|--all)$/.test(arg));
  if (program === "git" && (sub === "remote" || sub === "tag")) return args.length === 1 || args.every((arg) => arg === sub || arg === "-v");
  return true;
}

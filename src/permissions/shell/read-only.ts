/**
 * Uses of programs that only read. A shell command is approved without asking only when every segment is
 * one of these (and nothing writes through a redirection, and every path it names is inside the workspace).
 * When in doubt a program is left out: leaving one out costs a question, letting one in could cost data.
 */
import path from "node:path";

/** Programs that only read whatever their arguments, apart from the options listed in WRITING_OPTIONS. */
const READ_ONLY_PROGRAMS = new Set([
  "cat",
  "ls",
  "head",
  "tail",
  "wc",
  "pwd",
  "echo",
  "printf",
  "grep",
  "egrep",
  "fgrep",
  "rg",
  "ag",
  "find",
  "file",
  "stat",
  "du",
  "df",
  "tree",
  "which",
  "whereis",
  "whoami",
  "uname",
  "printenv",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "diff",
  "cmp",
  "comm",
  "sort",
  "cut",
  "tr",
  "nl",
  "less",
  "more",
  "true",
  "false",
  "test",
  "[",
  "id",
  "seq",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "sha512sum",
  "cksum",
  "column",
  "jq",
  "fold",
  "expand",
  "unexpand",
  "rev",
  "tac",
  "od",
  "hexdump",
  "strings",
  "sleep",
  "ps",
  "uptime",
  "free",
  "nproc",
  "lsb_release",
  "arch",
  "groups",
  "locale",
  "tty",
  "paste",
  "join",
  "look",
  "wait",
  "cd",
  "pushd",
  "popd",
]);

/** Programs with subcommands, whose identifier is "<program> <subcommand>". */
export const SUBCOMMAND_PROGRAMS = new Set([
  "git",
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "cargo",
  "go",
  "docker",
  "podman",
  "kubectl",
  "gh",
  "pip",
  "pip3",
  "dotnet",
  "make",
  "apt",
  "apt-get",
  "brew",
  "helm",
  "terraform",
  "systemctl",
  "poetry",
  "uv",
  "deno",
  "rustup",
  "mvn",
  "gradle",
]);

const READ_ONLY_SUBCOMMANDS: Record<string, ReadonlySet<string>> = {
  git: new Set([
    "status",
    "log",
    "diff",
    "show",
    "rev-parse",
    "ls-files",
    "blame",
    "describe",
    "shortlog",
    "grep",
    "ls-tree",
    "cat-file",
    "merge-base",
    "rev-list",
    "show-ref",
    "count-objects",
    "whatchanged",
    "name-rev",
    "check-ignore",
    "version",
    "help",
  ]),
  npm: new Set(["ls", "list", "view", "info", "outdated", "why", "explain", "search", "help", "root", "prefix", "--version", "-v"]),
  pnpm: new Set(["ls", "list", "why", "outdated", "--version"]),
  yarn: new Set(["list", "why", "info", "--version"]),
  cargo: new Set(["tree", "metadata", "--version", "search"]),
  go: new Set(["version", "list", "doc"]),
  docker: new Set(["ps", "images", "version", "info", "inspect", "logs"]),
  podman: new Set(["ps", "images", "version", "info", "inspect", "logs"]),
  kubectl: new Set(["get", "describe", "version", "logs", "explain", "api-resources"]),
  gh: new Set(["status"]),
  pip: new Set(["list", "show", "freeze", "--version"]),
  pip3: new Set(["list", "show", "freeze", "--version"]),
  dotnet: new Set(["--version", "--info", "--list-sdks", "--list-runtimes"]),
  systemctl: new Set(["status", "list-units", "is-active", "is-enabled"]),
};

/** `git branch`, `git tag`, `git remote`, `git stash`, `git config`: read-only only in their listing forms. */
const GIT_LISTING_FORMS: Record<string, RegExp> = {
  branch: /^(-a|-r|-v|-vv|--list|--all|--remotes|--show-current|--contains|--merged|--no-merged|--sort=.*|--format=.*|--verbose)$/,
  tag: /^(-l|--list|-n\d*|--contains|--sort=.*|--format=.*|--points-at)$/,
  remote: /^(-v|--verbose|show|get-url)$/,
  stash: /^(list|show|-p|--stat)$/,
  reflog: /^(show|-n\d*|--date=.*|--oneline|-\d+)$/,
  config: /^(--get|--get-all|--get-regexp|--list|-l|--show-origin|--show-scope|--global|--local|--system|--name-only)$/,
};

/** Options that make an otherwise read-only program write, execute something, or open other files. */
const WRITING_OPTIONS: Record<string, RegExp> = {
  find: /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/,
  sort: /^(-[a-zA-Z]*o|--output|--compress-program)/,
  rg: /^(--pre|--pre-glob|--search-zip|-z)/,
  git: /^(--output|--ext-diff|--exec|--upload-pack|--receive-pack|--open-files-in-pager|-O)/,
  less: /^(-o|-O|--log-file|--LOG-FILE)/,
  tree: /^-o$/,
  diff: /^--to-file$/,
};

/** The program's name as rules see it: `/usr/bin/rm` and `./rm` are `rm`. */
export function programName(word: string): string {
  return path.basename(word);
}

function firstOperand(args: readonly string[]): string | undefined {
  return args.find((arg) => !arg.startsWith("-"));
}

/** Global options that take a value, per program, so their value is not taken for the subcommand. */
const VALUED_GLOBALS: Record<string, RegExp> = {
  npm: /^(--loglevel|--prefix|-C|--userconfig|--globalconfig|--cache|--registry|-w|--workspace)$/,
  pnpm: /^(-C|--dir|--filter|-F|--loglevel|--reporter)$/,
  yarn: /^(--cwd)$/,
  docker: /^(-l|--log-level|-H|--host|-c|--context|--config|--tlscacert|--tlscert|--tlskey)$/,
  podman: /^(--log-level|--url|-c|--connection|--root|--runroot|--storage-driver)$/,
  kubectl: /^(-n|--namespace|--context|--cluster|-s|--server|--kubeconfig|--user|--token|--as|--as-group|-v|--request-timeout)$/,
  helm: /^(-n|--namespace|--kube-context|--kubeconfig|--registry-config|--repository-config|--repository-cache)$/,
  pip: /^(--log|--cache-dir|--proxy|--cert|--client-cert|--python|--timeout|--retries|--exists-action|--trusted-host|--src)$/,
  pip3: /^(--log|--cache-dir|--proxy|--cert|--client-cert|--python|--timeout|--retries|--exists-action|--trusted-host|--src)$/,
  cargo: /^(--config|-Z|--color|-C)$/,
  go: /^(-C)$/,
  gh: /^(-R|--repo|--hostname)$/,
  systemctl: /^(-H|--host|-M|--machine|-t|--type|-p|--property|--state|-n|--lines|-o|--output)$/,
  make: /^(-C|-f|--file|--makefile|-j|--jobs|-l|-I|--include-dir|-o|-W)$/,
};
/** Global options known to take no value. */
const FLAG_GLOBALS: Record<string, RegExp> = {
  npm: /^(-g|--global|-s|--silent|-q|--quiet|-d|--verbose|-y|--yes)$/,
  docker: /^(-D|--debug|--tls|--tlsverify)$/,
  kubectl: /^(--insecure-skip-tls-verify|--warnings-as-errors)$/,
  pip: /^(-v|--verbose|-q|--quiet|--isolated|--no-cache-dir|--disable-pip-version-check|--no-color|--require-virtualenv)$/,
  pip3: /^(-v|--verbose|-q|--quiet|--isolated|--no-cache-dir|--disable-pip-version-check|--no-color|--require-virtualenv)$/,
  cargo: /^(-v|--verbose|-q|--quiet|--frozen|--locked|--offline)$/,
};

/**
 * The subcommand of a program that has them, skipping global options (and their values). `certain` is false
 * when an option the tables do not know comes first: it might have taken the next word as its value.
 */
export function subcommandOf(program: string, args: readonly string[]): { sub?: string; certain: boolean } {
  const valued = VALUED_GLOBALS[program];
  const flags = FLAG_GLOBALS[program];
  let certain = true;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === "--") return { sub: args[index + 1], certain };
    if (!arg.startsWith("-") || arg === "-") return { sub: arg, certain };
    if (valued?.test(arg)) index++;
    else if (!arg.includes("=") && !flags?.test(arg)) certain = false;
  }
  return { certain };
}

/** The identifier a rule such as `shell(git push)` matches: the program, plus its subcommand if it has them. */
export function commandIdentifier(argv: readonly string[]): string {
  const program = programName(argv[0] ?? "");
  if (!SUBCOMMAND_PROGRAMS.has(program)) return program;
  const { sub } = subcommandOf(program, argv.slice(1));
  return sub ? `${program} ${sub}` : program;
}

const operands = (args: readonly string[]) => args.filter((arg) => !arg.startsWith("-"));

/** A sed script that only prints, deletes from its output, quits or substitutes (no w, e, r commands). */
function sedScriptReadOnly(script: string): boolean {
  return script.split(/[;\n]/).every((part) => {
    const command = part.trim();
    if (command === "") return true;
    if (/^(\d+|\$|\/[^/]*\/)?(,(\d+|\$|\/[^/]*\/))?!?\s*[pdqlnP=]$/.test(command)) return true;
    const substitution = /^(\d+|\$|\/[^/]*\/)?(,(\d+|\$|\/[^/]*\/))?s(.)(.*)$/.exec(command);
    if (!substitution) return false;
    const delimiter = substitution[4] as string;
    const rest = substitution[5] as string;
    const flags = rest.split(delimiter).at(-1) ?? "";
    return rest.split(delimiter).length === 3 && /^[gipI0-9]*$/.test(flags);
  });
}

function sedReadOnly(args: readonly string[]): boolean {
  if (args.some((arg) => /^(-i|--in-place|-f|--file|-s)/.test(arg) || /^-[a-zA-Z]*i/.test(arg))) return false;
  const scripts: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === "-e" || arg === "--expression") scripts.push(args[++index] ?? "");
    else if (arg.startsWith("--expression=")) scripts.push(arg.slice(13));
  }
  if (scripts.length === 0) {
    const script = firstOperand(args);
    if (script === undefined) return false;
    scripts.push(script);
  }
  return scripts.every(sedScriptReadOnly);
}

/**
 * awk that only prints: field separators and variables as its only options, and a program with no system(),
 * pipes, getline, redirections (any `>`, comparisons too: in doubt, left out) or gawk's `@` directives.
 */
function awkReadOnly(args: readonly string[]): boolean {
  let index = 0;
  for (; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === "--") {
      index++;
      break;
    }
    if (!arg.startsWith("-") || arg === "-") break;
    if (/^(-F|-v|--field-separator|--assign)$/.test(arg)) index++;
    else if (!/^(-F.|-v.|--field-separator=|--assign=)/.test(arg)) return false;
  }
  const program = args[index];
  return program !== undefined && !/system|[|>]|getline|@/.test(program);
}

export function isReadOnlyInvocation(argv: readonly string[]): boolean {
  const program = programName(argv[0] ?? "");
  const args = argv.slice(1);
  const writing = WRITING_OPTIONS[program];
  if (writing && args.some((arg) => writing.test(arg))) return false;
  switch (program) {
    case "sed":
      return sedReadOnly(args);
    case "uniq":
    case "xxd":
      return operands(args).length <= 1 && !args.includes("-r"); // a second operand is an output file
    case "hostname": // with an operand it sets the host name
      return operands(args).length === 0;
    case "date": // -s or an operand other than +FORMAT sets the clock
      return !args.some((arg) => /^(-s|--set)/.test(arg)) && operands(args).every((arg) => arg.startsWith("+"));
    case "env": // with a command, env is unwrapped before this; on its own it prints the environment
      return args.every((arg) => arg === "-0" || arg === "--null");
    case "command":
      return args[0] === "-v" || args[0] === "-V";
    case "type":
    case "printenv":
      return true;
    case "git":
      return gitReadOnly(args);
    case "awk":
    case "gawk":
    case "mawk":
    case "nawk":
      return awkReadOnly(args);
    default:
      break;
  }
  if (READ_ONLY_PROGRAMS.has(program)) return true;
  const subcommands = READ_ONLY_SUBCOMMANDS[program];
  if (!subcommands) return false;
  const { sub, certain } = subcommandOf(program, args);
  if (sub === undefined) return args.length > 0 && args.every((arg) => subcommands.has(arg)); // `npm --version`
  return certain && subcommands.has(sub);
}

function gitReadOnly(args: readonly string[]): boolean {
  const sub = firstOperand(args);
  if (sub === undefined) return args.length > 0 && args.every((arg) => arg === "--version" || arg === "--help");
  const rest = args.slice(args.indexOf(sub) + 1);
  const listing = GIT_LISTING_FORMS[sub];
  if (listing) {
    if (sub === "config")
      return rest.some((arg) => /^(--get|--get-all|--get-regexp|--list|-l)$/.test(arg)) && rest.every((arg) => !arg.startsWith("-") || listing.test(arg));
    if (sub === "remote" || sub === "reflog") return rest.length === 0 || listing.test(rest[0] as string);
    if (sub === "stash") return rest.length > 0 && listing.test(rest[0] as string); // `git stash` alone is `git stash push`
    return rest.every(
      (arg) =>
        listing.test(arg) ||
        (!arg.startsWith("-") &&
          (sub === "branch" || sub === "tag") &&
          rest.some((flag) => /^(--list|-l|--contains|--points-at|--merged|--no-merged)$/.test(flag))),
    );
  }
  return READ_ONLY_SUBCOMMANDS.git?.has(sub) ?? false;
}

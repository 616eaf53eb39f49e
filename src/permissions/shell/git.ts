/**
 * git runs other programs in many ways: aliases that start with `!` (from config or `-c alias.x=…`),
 * configuration that names a command (`core.pager`, `diff.external`, `core.fsmonitor`, …, given with `-c`
 * or written with `git config`), `--upload-pack`/`--receive-pack`, `rebase --exec`, `bisect run`,
 * `submodule foreach`. This follows them so rules see the programs git would run.
 */
import type { WrapperSink } from "./wrappers.js";

/** Commands git itself provides; an alias with one of these names is never used. */
const GIT_COMMANDS = new Set(
  (
    "add am annotate apply archive bisect blame branch bundle cat-file check-attr check-ignore checkout cherry cherry-pick " +
    "citool clean clone commit config count-objects describe diff diff-files diff-index diff-tree difftool fetch " +
    "filter-branch format-patch fsck gc grep gui help init instaweb log ls-files ls-remote ls-tree maintenance merge " +
    "merge-base mergetool mv name-rev notes pull push range-diff rebase reflog remote repack replace request-pull " +
    "reset restore rev-list rev-parse revert rm shortlog show show-branch show-ref sparse-checkout stash status " +
    "submodule switch tag verify-commit verify-tag version whatchanged worktree"
  ).split(" "),
);

const VALUED_GLOBALS = /^(-C|-c|--git-dir|--work-tree|--namespace|--config-env|--super-prefix|--list-cmds)$/;

/** Configuration whose value is a command git runs. */
const COMMAND_KEYS =
  /^(core\.(pager|editor|sshcommand|fsmonitor|askpass|gitproxy)|diff\.external|diff\.[^.]+\.(command|textconv)|merge\.[^.]+\.driver|filter\.[^.]+\.(clean|smudge|process)|credential\.helper|credential\..+\.helper|sequence\.editor|gpg\.program|gpg\.[^.]+\.program|pager\..+|alias\..+|web\.browser|browser\.[^.]+\.(cmd|path)|man\.[^.]+\.(cmd|path)|uploadpack\.packobjectshook|remote\.[^.]+\.(uploadpack|receivepack|proxy)|sendemail\.[^.]*(cmd|command)|submodule\..+\.update|interactive\.difffilter|core\.alternaterefscommand|hook\..+\.command|(diff|merge)tool\..+\.cmd)$/i;
/** Configuration that points git at code the analysis cannot see. */
const OPAQUE_KEYS = /^(core\.hookspath|include\.path|includeif\..+|url\..+\.(insteadof|pushinsteadof))$/i;
/** Configuration that lets git run programs it names elsewhere (the ext:: transport, remote helpers). */
const RUNS_LATER_KEYS = /^(protocol\..*allow|remote\..+\.vcs)$/i;

export interface GitResult {
  /** `git <subcommand> …` with the global options removed. */
  argv: string[];
  /** Configuration given on the command line: never read-only. */
  unsafe: boolean;
}

/** Values of options like `-x cmd`, `-xcmd`, `--exec cmd`, `--exec=cmd`. */
function valuesOf(args: string[], short: string | undefined, long: string[]): string[] {
  const values: string[] = [];
  args.forEach((arg, index) => {
    const equals = arg.indexOf("=");
    if (equals > 0 && long.includes(arg.slice(0, equals))) values.push(arg.slice(equals + 1));
    else if ((arg === short || long.includes(arg)) && args[index + 1] !== undefined) values.push(args[index + 1] as string);
    else if (short && arg.startsWith(short) && arg.length > short.length && !arg.startsWith("--")) values.push(arg.slice(short.length));
  });
  return values;
}

/** A configuration setting: runs its value when it names a command, gives up when it points at code. */
function configSetting(name: string, value: string, sink: WrapperSink): void {
  if (COMMAND_KEYS.test(name)) sink.script(value.startsWith("!") ? value.slice(1) : value);
  else if (OPAQUE_KEYS.test(name)) sink.unparsed(`git configuration ${name} makes git run code the analysis cannot see`);
  else if (RUNS_LATER_KEYS.test(name)) sink.opaque(`git configuration ${name} lets git run programs named elsewhere`);
}

/** `git config` options whose value is the next word (the file it writes, a type, a default). */
const CONFIG_VALUED = /^(-f|--file|--blob|-t|--type|--default|--comment|--value)$/;

function configCommand(rest: string[], sink: WrapperSink): void {
  // `git config -f .git/config core.fsmonitor cmd`: the file is not the setting's name.
  const operands = rest.filter((arg, index) => !arg.startsWith("-") && !CONFIG_VALUED.test(rest[index - 1] ?? ""));
  // `git config name value`, `git config set name value`, `git config --add name value`
  const [first, second, third] = operands;
  if (first === "set" && second !== undefined && third !== undefined) configSetting(second, third, sink);
  else if (first !== undefined && second !== undefined && !["get", "unset", "list", "edit", "rename-section", "remove-section"].includes(first))
    configSetting(first, second, sink);
}

export function followGit(argv: string[], aliases: Readonly<Record<string, string>>, sink: WrapperSink, depth = 0): GitResult {
  const localAliases: Record<string, string> = { ...aliases };
  let unsafe = false;
  let index = 1;
  while (index < argv.length) {
    const arg = argv[index] as string;
    if (arg === "-c" || (arg.startsWith("-c") && arg.length > 2 && !arg.startsWith("--"))) {
      const setting = arg === "-c" ? (argv[index + 1] ?? "") : arg.slice(2);
      const [name = "", ...value] = setting.split("=");
      unsafe = true; // configuration may change behaviour in ways a rule does not expect
      configSetting(name, value.join("="), sink);
      if (name.toLowerCase().startsWith("alias.")) localAliases[name.slice(6).toLowerCase()] = value.join("=");
      index += arg === "-c" ? 2 : 1;
    } else if (arg === "--exec-path" || arg.startsWith("--exec-path=") || arg.startsWith("--config-env")) {
      sink.unparsed(`git ${arg} makes git run programs from elsewhere`);
      index += arg === "--config-env" ? 2 : 1;
    } else if (VALUED_GLOBALS.test(arg)) {
      // -C, --git-dir and --work-tree move git elsewhere: those directories are paths it touches.
      if (/^(-C|--git-dir|--work-tree)$/.test(arg) && argv[index + 1] !== undefined) sink.path(argv[index + 1] as string, "read");
      index += 2;
    } else if (/^--(git-dir|work-tree)=/.test(arg)) {
      sink.path(arg.slice(arg.indexOf("=") + 1), "read");
      index += 1;
    } else if (arg.startsWith("-")) index += 1;
    else break;
  }
  const sub = argv[index];
  const rest = argv.slice(index + 1);
  const normalized = ["git", ...argv.slice(index)];
  if (sub === undefined) return { argv: normalized, unsafe };
  const alias = GIT_COMMANDS.has(sub) ? undefined : localAliases[sub.toLowerCase()];
  if (alias !== undefined) {
    if (alias.startsWith("!")) {
      sink.script([alias.slice(1), ...rest].join(" "));
      return { argv: normalized, unsafe: true };
    }
    if (depth >= 5) {
      sink.unparsed(`git alias "${sub}" refers to itself`);
      return { argv: normalized, unsafe: true };
    }
    return followGit(["git", ...alias.trim().split(/\s+/).filter(Boolean), ...rest], localAliases, sink, depth + 1);
  }
  const run = (commands: string[]) => commands.forEach((command) => sink.script(command));
  if (sub === "config") configCommand(rest, sink);
  if (sub === "rebase") run(valuesOf(rest, "-x", ["--exec"]));
  if (sub === "difftool" || sub === "mergetool") run(valuesOf(rest, "-x", ["--extcmd"]));
  if (sub === "filter-branch")
    run(rest.flatMap((arg, position) => (/^--[a-z-]*filter$/.test(arg) && rest[position + 1] !== undefined ? [rest[position + 1] as string] : [])));
  if (["clone", "fetch", "pull", "ls-remote"].includes(sub)) run(valuesOf(rest, "-u", ["--upload-pack"]));
  if (sub === "push") run(valuesOf(rest, undefined, ["--receive-pack", "--exec"]));
  if (sub === "archive") run(valuesOf(rest, undefined, ["--exec"]));
  if (sub === "bisect" && rest[0] === "run" && rest.length > 1) sink.command(rest.slice(1));
  if (sub === "submodule") {
    const foreach = rest.indexOf("foreach");
    if (foreach >= 0) {
      const command = rest.slice(foreach + 1).filter((arg) => arg !== "--recursive" && arg !== "-q" && arg !== "--quiet");
      if (command.length > 0) sink.script(command.join(" "));
    }
  }
  return { argv: normalized, unsafe };
}

/**
 * git runs other programs in several ways: `-c alias.x='!cmd'`, aliases from config that start with `!`,
 * `rebase --exec`, `bisect run`, `submodule foreach`, and configuration (`-c core.pager=…`). This follows
 * them so rules see the programs git would run.
 */
import type { WrapperSink } from "./wrappers.js";

/** Commands git itself provides; an alias with one of these names is never used. */
const GIT_COMMANDS = new Set(
  ("add am annotate apply archive bisect blame branch bundle cat-file check-attr check-ignore checkout cherry cherry-pick " +
    "citool clean clone commit config count-objects describe diff diff-files diff-index diff-tree difftool fetch " +
    "filter-branch format-patch fsck gc grep gui help init instaweb log ls-files ls-remote ls-tree maintenance merge " +
    "merge-base mergetool mv name-rev notes pull push range-diff rebase reflog remote repack replace request-pull " +
    "reset restore rev-list rev-parse revert rm shortlog show show-branch show-ref sparse-checkout stash status " +
    "submodule switch tag verify-commit verify-tag version whatchanged worktree").split(" "),
);

const VALUED_GLOBALS = /^(-C|-c|--git-dir|--work-tree|--namespace|--config-env|--super-prefix|--list-cmds)$/;

export interface GitResult {
  /** `git <subcommand> …` with the global options removed. */
  argv: string[];
  /** Global options that change what git runs (-c, --exec-path, --config-env): never read-only. */
  unsafe: boolean;
}

function valueAfter(args: string[], names: RegExp): string[] {
  const values: string[] = [];
  args.forEach((arg, index) => {
    const equals = arg.indexOf("=");
    if (equals > 0 && names.test(arg.slice(0, equals))) values.push(arg.slice(equals + 1));
    else if (names.test(arg) && args[index + 1] !== undefined) values.push(args[index + 1] as string);
  });
  return values;
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
      // Configuration can make git run programs (core.pager, diff.external, aliases…): never read-only.
      unsafe = true;
      if (name.toLowerCase().startsWith("alias.")) localAliases[name.slice(6)] = value.join("=");
      index += arg === "-c" ? 2 : 1;
    } else if (arg === "--exec-path" || arg.startsWith("--exec-path=") || arg.startsWith("--config-env")) {
      unsafe = true;
      index += arg === "--config-env" ? 2 : 1;
    } else if (VALUED_GLOBALS.test(arg)) {
      // -C, --git-dir and --work-tree move git elsewhere: those directories are paths it touches.
      if (/^(-C|--git-dir|--work-tree)$/.test(arg) && argv[index + 1] !== undefined) sink.path(argv[index + 1] as string, "read");
      index += 2;
    } else if (/^--(git-dir|work-tree)=/.test(arg)) {
      sink.path(arg.slice(arg.indexOf("=") + 1), "read");
      index += 1;
    }
    else if (arg.startsWith("-")) index += 1;
    else break;
  }
  const sub = argv[index];
  const rest = argv.slice(index + 1);
  const normalized = ["git", ...argv.slice(index)];
  if (sub === undefined) return { argv: normalized, unsafe };
  const alias = GIT_COMMANDS.has(sub) ? undefined : localAliases[sub];
  if (alias !== undefined) {
    if (alias.startsWith("!")) {
      sink.script([alias.slice(1), ...rest].join(" "));
      return { argv: normalized, unsafe: true };
    }
    if (depth >= 5) {
      sink.unparsed(`git alias "${sub}" refers to itself`);
      return { argv: normalized, unsafe: true };
    }
    const expanded = alias.trim().split(/\s+/).filter(Boolean);
    return followGit(["git", ...expanded, ...rest], localAliases, sink, depth + 1);
  }
  if (sub === "rebase") for (const command of valueAfter(rest, /^(-x|--exec)$/)) sink.script(command);
  if (sub === "difftool" || sub === "mergetool") for (const command of valueAfter(rest, /^(-x|--extcmd)$/)) sink.script(command);
  if (sub === "filter-branch") for (const command of valueAfter(rest, /^--[a-z-]*filter$/)) sink.script(command);
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

/**
 * Programs that run other programs. Each wrapper's own options are skipped to find the command it runs,
 * which becomes a segment of its own; strings it hands to a shell are parsed as shell.
 */
import { commandIdentifier, programName } from "./read-only.js";

export interface WrapperSink {
  /** Analyse argv (recursively) as a command. `operandsUnknown`: its arguments come from elsewhere (xargs). */
  command(argv: string[], options?: { operandsUnknown?: boolean }): void;
  /** Parse this text as a shell script. */
  script(text: string): void;
  unparsed(reason: string): void;
  /** A path the wrapper itself uses (a directory it changes to, a file it writes). */
  path(pathText: string, access: "read" | "write"): void;
}

interface WrapperSpec {
  /** Options that take a value as the next word. */
  valued: RegExp;
  /** Needs approval of its own (sudo), or is only a way of running the inner command (time). */
  transparent: boolean;
  /** Words to skip after the options before the command (timeout's duration, chroot's directory). */
  positional?: number;
}

const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: { valued: /^(-[ugCphrtUDR]|--(user|group|close-from|prompt|host|role|type|other-user|chdir|chroot))$/, transparent: false },
  doas: { valued: /^-[uC]$/, transparent: false },
  nohup: { valued: /^$/, transparent: true },
  time: { valued: /^(-f|--format|-o|--output)$/, transparent: true },
  timeout: { valued: /^(-s|--signal|-k|--kill-after)$/, transparent: true, positional: 1 },
  nice: { valued: /^(-n|--adjustment)$/, transparent: true },
  ionice: { valued: /^(-c|--class|-n|--classdata|-p|--pid|-P|--pgid|-u|--uid)$/, transparent: true },
  stdbuf: { valued: /^(-i|-o|-e|--input|--output|--error)$/, transparent: true },
  setsid: { valued: /^$/, transparent: true },
  chroot: { valued: /^(--userspec|--groups)$/, transparent: false, positional: 1 },
  command: { valued: /^$/, transparent: true },
  builtin: { valued: /^$/, transparent: true },
  exec: { valued: /^-a$/, transparent: true },
  unbuffer: { valued: /^$/, transparent: true },
  strace: { valued: /^(-e|-o|-p|-s|-u|-E|-P|-a|-I|-b|-X|-O|-S)$/, transparent: false },
  ltrace: { valued: /^(-e|-o|-p|-s|-u|-E|-a|-n|-A|-D)$/, transparent: false },
  runuser: { valued: /^(-u|--user|-g|--group|-G|--supp-group|-s|--shell|-w)$/, transparent: false },
  flock: { valued: /^(-w|--timeout|-E|--conflict-exit-code)$/, transparent: false, positional: 1 },
};

const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish"]);
const XARGS_VALUED = /^(-a|--arg-file|-d|--delimiter|-E|-e|--eof|-I|-i|--replace|-L|-l|--max-lines|-n|--max-args|-P|--max-procs|-s|--max-chars|--process-slot-var)$/;

/** Skips options (and valued options' values) from `start`; returns the index of the first operand. */
function skipOptions(argv: string[], start: number, valued: RegExp): number {
  let index = start;
  while (index < argv.length) {
    const arg = argv[index] as string;
    if (arg === "--") return index + 1;
    if (!arg.startsWith("-") || arg === "-") return index;
    index += valued.test(arg) ? 2 : 1;
  }
  return index;
}

function unwrapEnv(argv: string[], sink: WrapperSink): void {
  let index = 1;
  while (index < argv.length) {
    const arg = argv[index] as string;
    if (arg === "-S" || arg === "--split-string" || arg.startsWith("--split-string=") || (arg.startsWith("-S") && arg.length > 2)) {
      const text = arg === "-S" || arg === "--split-string" ? (argv[index + 1] ?? "") : arg.replace(/^(-S|--split-string=)/, "");
      sink.script([text, ...argv.slice(arg === "-S" || arg === "--split-string" ? index + 2 : index + 1)].join(" "));
      return;
    }
    if (arg === "-C" || arg === "--chdir") sink.path(argv[index + 1] ?? "", "read");
    if (arg.startsWith("--chdir=")) sink.path(arg.slice(8), "read");
    if (arg === "-u" || arg === "--unset" || arg === "-C" || arg === "--chdir") index += 2;
    else if (arg.startsWith("-") && arg !== "-") index += 1;
    else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)) index += 1;
    else break;
  }
  if (index < argv.length) sink.command(argv.slice(index));
}

function unwrapShell(argv: string[], sink: WrapperSink): boolean {
  for (let index = 1; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg)) {
      const script = argv[index + 1];
      if (script === undefined) sink.unparsed(`${argv[0]} -c without a command`);
      else sink.script(script);
      return true;
    }
    if (!arg.startsWith("-") && !arg.startsWith("+")) return false; // a script file: the shell runs what we cannot see
    if (arg === "-o" || arg === "+o" || arg === "--rcfile" || arg === "--init-file") index++;
  }
  return true; // `bash -s` or no arguments: reads the script from stdin (heredocs are parsed where they appear)
}

function unwrapFindExec(argv: string[], sink: WrapperSink): void {
  for (let index = 1; index < argv.length; index++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(argv[index] as string)) continue;
    const end = argv.findIndex((arg, position) => position > index && (arg === ";" || arg === "+"));
    const inner = argv.slice(index + 1, end < 0 ? undefined : end);
    if (inner.length > 0) sink.command(inner, { operandsUnknown: true });
    if (end < 0) break;
    index = end;
  }
}

/**
 * Follows a wrapper to the command it runs. Returns whether the wrapper itself is transparent (needs no
 * approval of its own), or undefined when argv is not a wrapper.
 */
export function unwrap(argv: string[], sink: WrapperSink): { transparent: boolean } | undefined {
  const program = programName(argv[0] ?? "");
  if (program === "env") {
    if (argv.length > 1 && argv.slice(1).some((arg) => !arg.startsWith("-") && !arg.includes("="))) {
      unwrapEnv(argv, sink);
      return { transparent: true };
    }
    if (argv.some((arg) => /^(-S|--split-string)/.test(arg))) {
      unwrapEnv(argv, sink);
      return { transparent: true };
    }
    return undefined;
  }
  if (program === "command" && (argv[1] === "-v" || argv[1] === "-V")) return undefined;
  if (SHELLS.has(program)) return unwrapShell(argv, sink) ? { transparent: true } : undefined;
  if (program === "eval") {
    sink.script(argv.slice(1).join(" "));
    return { transparent: true };
  }
  if (program === "su") {
    const flag = argv.findIndex((arg) => arg === "-c" || arg === "--command");
    if (flag > 0 && argv[flag + 1] !== undefined) sink.script(argv[flag + 1] as string);
    return { transparent: false };
  }
  if (program === "xargs") {
    const start = skipOptions(argv, 1, XARGS_VALUED);
    sink.command(start < argv.length ? argv.slice(start) : ["echo"], { operandsUnknown: true });
    return { transparent: true };
  }
  if (program === "find") {
    unwrapFindExec(argv, sink);
    return undefined; // find is a segment of its own either way
  }
  if (program === "watch") {
    const start = skipOptions(argv, 1, /^(-n|--interval|-d|--differences|-q|--equexit)$/);
    if (start < argv.length) {
      if (argv.includes("-x") || argv.includes("--exec")) sink.command(argv.slice(start));
      else sink.script(argv.slice(start).join(" "));
    }
    return { transparent: true };
  }
  if (program === "time" || program === "flock") {
    const output = argv.findIndex((arg) => arg === "-o" || arg === "--output");
    if (program === "time" && output > 0 && argv[output + 1]) sink.path(argv[output + 1] as string, "write");
    const command = argv.findIndex((arg) => arg === "-c" || arg === "--command");
    if (program === "flock" && command > 0 && argv[command + 1] !== undefined) {
      sink.script(argv[command + 1] as string);
      return { transparent: false };
    }
  }
  const spec = WRAPPERS[program];
  if (!spec) return undefined;
  const start = skipOptions(argv, 1, spec.valued) + (spec.positional ?? 0);
  if (start < argv.length) sink.command(argv.slice(start));
  return { transparent: spec.transparent && start < argv.length };
}

export { commandIdentifier };

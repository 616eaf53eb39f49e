/**
 * Programs that run other programs. Each wrapper's own options are skipped to find the command it runs,
 * which becomes a segment of its own; strings it hands to a shell are parsed as shell.
 */
import type { PathAccess } from "./analysis-types.js";
import { programName } from "./read-only.js";

export interface WrapperSink {
  /** Analyse argv (recursively) as a command. `operandsUnknown`: its arguments come from elsewhere (xargs). */
  command(argv: string[], options?: { operandsUnknown?: boolean }): void;
  /** Parse this text as a shell script. */
  script(text: string): void;
  unparsed(reason: string): void;
  /** Understood, but what it runs cannot be seen (see opaque.ts). */
  opaque(reason: string): void;
  /** A path the wrapper itself uses (a directory it changes to, a file it writes). */
  path(pathText: string, access: PathAccess): void;
  /** A variable the wrapper sets for the command it runs (env NAME=value). */
  assignment(name: string, value: string): void;
}

interface WrapperSpec {
  /** Options that take a value as the next word. */
  valued: RegExp;
  /** Only a way of running the inner command (time), or a program that needs approval of its own (sudo). */
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
  command: { valued: /^$/, transparent: true },
  builtin: { valued: /^$/, transparent: true },
  exec: { valued: /^-a$/, transparent: true },
  unbuffer: { valued: /^$/, transparent: true },
  chrt: { valued: /^(-T|--sched-runtime|-P|--sched-period|-D|--sched-deadline)$/, transparent: true, positional: 1 },
  taskset: { valued: /^(-c|--cpu-list)$/, transparent: true, positional: 1 },
  numactl: { valued: /^(-[CNmPpi]|--(physcpubind|cpunodebind|membind|preferred|interleave))$/, transparent: true },
  busybox: { valued: /^$/, transparent: true },
  toybox: { valued: /^$/, transparent: true },
  fakeroot: { valued: /^(-l|--lib|--faked|-s|-i)$/, transparent: false },
  unshare: { valued: /^(-S|--setuid|-G|--setgroups|-R|--root|-w|--wd)$/, transparent: false },
  chroot: { valued: /^(--userspec|--groups)$/, transparent: false, positional: 1 },
  strace: { valued: /^(-e|-o|-p|-s|-u|-E|-P|-a|-I|-b|-X|-O|-S)$/, transparent: false },
  ltrace: { valued: /^(-e|-o|-p|-s|-u|-E|-a|-n|-A|-D)$/, transparent: false },
  firejail: { valued: /^$/, transparent: false },
};

/**
 * Package managers' ways of running a program: `npx rm x`, `npm exec -- rm x`, `uv run rm x`. The program
 * they run is a command of its own (so deny rules see it); the runner needs approval of its own too.
 */
const RUNNERS: Record<string, { sub?: RegExp; valued: RegExp }> = {
  npx: { valued: /^(-p|--package|-c|--call|--prefix|-w|--workspace)$/ },
  bunx: { valued: /^(-p|--package)$/ },
  uvx: { valued: /^(--from|--with|-p|--python)$/ },
  pnpx: { valued: /^(-p|--package)$/ },
  npm: { sub: /^(exec|x)$/, valued: /^(-p|--package|-c|--call|--prefix|-w|--workspace)$/ },
  pnpm: { sub: /^(exec|dlx)$/, valued: /^(--filter|-F|-C|--dir)$/ },
  yarn: { sub: /^(exec|dlx)$/, valued: /^(-p|--package)$/ },
  bun: { sub: /^(x|exec)$/, valued: /^$/ },
  uv: { sub: /^(run|tool)$/, valued: /^(--with|--python|-p|--project|--directory|--package|--from|--env-file)$/ },
  poetry: { sub: /^run$/, valued: /^(-C|--directory|-P|--project)$/ },
  pipenv: { sub: /^run$/, valued: /^$/ },
  pixi: { sub: /^(run|exec)$/, valued: /^(-e|--environment|--manifest-path)$/ },
  conda: { sub: /^run$/, valued: /^(-n|--name|-p|--prefix|--cwd)$/ },
  bundle: { sub: /^exec$/, valued: /^$/ },
  pdm: { sub: /^run$/, valued: /^(-p|--project)$/ },
  hatch: { sub: /^run$/, valued: /^(-e|--env)$/ },
};

/** Wrappers that hand a string to a shell: the option, and whether the wrapper needs approval of its own. */
const STRING_RUNNERS: Record<string, { option: RegExp; transparent: boolean }> = {
  su: { option: /^(-[a-zA-Z]*c|--command)$/, transparent: false },
  runuser: { option: /^(-[a-zA-Z]*c|--command)$/, transparent: false },
  flock: { option: /^(-c|--command)$/, transparent: false },
  script: { option: /^(-[a-zA-Z]*c|--command)$/, transparent: true },
};

export const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish", "busybox-sh"]);
const XARGS_VALUED =
  /^(-a|--arg-file|-d|--delimiter|-E|-e|--eof|-I|-i|--replace|-L|-l|--max-lines|-n|--max-args|-P|--max-procs|-s|--max-chars|--process-slot-var)$/;

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

function unwrapEnv(argv: string[], sink: WrapperSink): boolean {
  let index = 1;
  while (index < argv.length) {
    const arg = argv[index] as string;
    if (arg === "-S" || arg === "--split-string" || arg.startsWith("--split-string=") || (arg.startsWith("-S") && arg.length > 2)) {
      const separate = arg === "-S" || arg === "--split-string";
      const text = separate ? (argv[index + 1] ?? "") : arg.replace(/^(-S|--split-string=)/, "");
      sink.script([text, ...argv.slice(separate ? index + 2 : index + 1)].join(" "));
      return true;
    }
    if (arg === "-C" || arg === "--chdir") sink.path(argv[index + 1] ?? "", "read");
    if (arg.startsWith("--chdir=")) sink.path(arg.slice(8), "read");
    const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(arg);
    if (arg === "-u" || arg === "--unset" || arg === "-C" || arg === "--chdir") index += 2;
    else if (assignment) {
      sink.assignment(assignment[1] as string, assignment[2] as string);
      index += 1;
    } else if (arg.startsWith("-") && arg !== "-") index += 1;
    else break;
  }
  if (index >= argv.length) return false;
  sink.command(argv.slice(index));
  return true;
}

/** How a shell is started: with a -c string, on a script file, or reading its script from stdin. */
export function shellInvocation(argv: string[]): { mode: "command"; script?: string } | { mode: "file"; file: string } | { mode: "stdin" } {
  let index = 1;
  let command = false;
  while (index < argv.length) {
    const arg = argv[index] as string;
    if (arg === "--" || arg === "-") {
      index++;
      break;
    }
    if (/^[-+][oO]$|^--(rcfile|init-file)$/.test(arg)) index += 2;
    else if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg)) {
      command = true;
      index++;
    } else if (arg.startsWith("-") || arg.startsWith("+")) index++;
    else break;
  }
  if (command) return { mode: "command", ...(argv[index] !== undefined ? { script: argv[index] as string } : {}) };
  if (index < argv.length && !argv.slice(1).includes("-s")) return { mode: "file", file: argv[index] as string };
  return { mode: "stdin" };
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
  if (program === "env") return unwrapEnv(argv, sink) ? { transparent: true } : undefined;
  if (program === "command" && (argv[1] === "-v" || argv[1] === "-V")) return undefined;
  if (SHELLS.has(program)) {
    const invocation = shellInvocation(argv);
    if (invocation.mode !== "command") return undefined; // a script the analysis cannot see: the shell needs approval
    if (invocation.script === undefined) sink.unparsed(`${program} -c without a command`);
    else sink.script(invocation.script);
    return { transparent: true };
  }
  if (program === "eval") {
    sink.script(argv.slice(1).join(" "));
    return { transparent: true };
  }
  if (program === "trap") {
    const action = argv[1] === "--" ? argv[2] : argv[1];
    if (action !== undefined && !/^-[lp]$/.test(action) && action !== "-" && argv.length > 2) sink.script(action);
    return { transparent: true };
  }
  const packageRunner = RUNNERS[program];
  if (packageRunner) {
    let start = 1;
    if (packageRunner.sub) {
      start = argv.findIndex((arg, index) => index > 0 && !arg.startsWith("-"));
      if (start < 0 || !packageRunner.sub.test(argv[start] as string)) return undefined;
      if (program === "uv" && argv[start] === "tool") {
        if (argv[start + 1] !== "run") return undefined;
        start++;
      }
      start++;
    }
    const inner = skipOptions(argv, start, packageRunner.valued);
    if (inner < argv.length) sink.command(argv.slice(inner));
    return { transparent: false };
  }
  const runner = STRING_RUNNERS[program];
  if (runner) {
    const flag = argv.findIndex((arg) => runner.option.test(arg));
    if (flag > 0 && argv[flag + 1] !== undefined) sink.script(argv[flag + 1] as string);
    else if (program === "flock" && argv.length > 2) sink.command(argv.slice(skipOptions(argv, 1, /^(-w|--timeout|-E|--conflict-exit-code)$/) + 1));
    else if (program === "runuser") {
      const start = skipOptions(argv, 1, /^(-u|--user|-g|--group|-G|--supp-group|-s|--shell|-w|--whitelist-environment)$/);
      if (start < argv.length) sink.command(argv.slice(start));
    }
    return { transparent: runner.transparent && flag > 0 };
  }
  if (program === "coproc") {
    // `coproc cmd args`, or `coproc NAME { cmd; }` (which the grammar reads as words).
    const inner = argv[2] === "{" ? argv.slice(3) : argv.slice(1);
    if (inner.length > 0) sink.command(inner);
    return { transparent: true };
  }
  if (program === "taskset" && argv.some((arg) => /^(-c|--cpu-list)$/.test(arg))) {
    // With a CPU list there is no mask operand before the command.
    const start = skipOptions(argv, 1, /^(-c|--cpu-list)$/);
    if (start < argv.length) sink.command(argv.slice(start));
    return { transparent: true };
  }
  if (program === "xargs") {
    const start = skipOptions(argv, 1, XARGS_VALUED);
    sink.command(start < argv.length ? argv.slice(start) : ["echo"], { operandsUnknown: true });
    return { transparent: true };
  }
  if (program === "parallel") {
    const start = skipOptions(argv, 1, /^(-j|--jobs|-S|--sshlogin|-a|--arg-file|--delay|--timeout|--joblog|--results|-d|--delimiter|-I|--tmpdir)$/);
    const end = argv.findIndex((arg, position) => position >= start && /^:::+$/.test(arg));
    const template = argv.slice(start, end < 0 ? undefined : end);
    if (template.length > 0) sink.script(template.join(" ").replace(/\{[^}]*\}/g, "ARG"));
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
  if (program === "time") {
    const output = argv.findIndex((arg) => arg === "-o" || arg === "--output");
    if (output > 0 && argv[output + 1]) sink.path(argv[output + 1] as string, "write");
  }
  const spec = WRAPPERS[program];
  if (!spec) return undefined;
  const start = skipOptions(argv, 1, spec.valued) + (spec.positional ?? 0);
  if (start < argv.length) sink.command(argv.slice(start));
  return { transparent: spec.transparent && start < argv.length };
}

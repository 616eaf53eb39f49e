/**
 * Commands whose effect the analysis cannot see: code handed to an interpreter inline or on its input,
 * programs that run a command named in an option (tar's checkpoint actions, ssh's ProxyCommand, git's ext::
 * transport, a pager for `git grep -O`), sed's `e`. Unlike what the parser cannot follow at all, these are
 * understood as commands; but what they do is code, so no allow rule approves them, and with a deny rule in
 * force --allow-all-tools does not either (a deny on `rm` must not be lost to `perl -e 'unlink …'`).
 */
import { programName } from "./read-only.js";

/** Interpreters and the options that give them their program as an argument. */
const INLINE_CODE: Record<string, RegExp> = {
  perl: /^-[a-zA-Z]*[eE]/,
  python: /^-[a-zA-Z]*c/,
  ruby: /^-[a-zA-Z]*e/,
  node: /^(-[a-zA-Z]*[ep]|--eval|--print|--eval=.*|--print=.*)$/,
  bun: /^(-e|--eval|-p|--print)$/,
  php: /^(-r|-B|-R|-E|-F)$/,
  lua: /^-e/,
  luajit: /^-e/,
  Rscript: /^-e$/,
  julia: /^(-e|-E|--eval|--print)$/,
  osascript: /^-e$/,
  pwsh: /^(-c|-Command|-command|-EncodedCommand|-e|-ec)$/i,
  tclsh: /^$/,
  gdb: /^(-ex|--ex|-eval-command|--eval-command|-iex|-x|--command)(=.*)?$/,
  vim: /^(-c|--cmd|-S|\+(?!\d*$).*)$/,
  vi: /^(-c|--cmd|-S|\+(?!\d*$).*)$/,
  nvim: /^(-c|--cmd|-S|-l|\+(?!\d*$).*)$/,
  ex: /^(-c|--cmd|-S|\+(?!\d*$).*)$/,
  emacs: /^(--eval|-eval|--execute|-l|--load|-f|--funcall)(=.*)?$/,
};

/** Interpreters that read their program from stdin when given no program. */
const STDIN_INTERPRETERS = new Set(["perl", "python", "ruby", "node", "php", "lua", "tclsh", "Rscript", "julia"]);

const AWKS = new Set(["awk", "gawk", "mawk", "nawk"]);
const GENERATED_FILE = /^(-|\/dev\/(stdin|fd\/\d+)|\/proc\/[^/]+\/fd\/\d+)$/;

/** `python3.12` and `python3` are python; `perl5.36` is perl. */
function interpreterName(program: string): string {
  if (/^python[0-9.]*$|^pypy[0-9.]*$/.test(program)) return "python";
  if (/^perl[0-9.]*$/.test(program)) return "perl";
  if (/^ruby[0-9.]*$/.test(program)) return "ruby";
  if (/^(nodejs|node[0-9.]*)$/.test(program)) return "node";
  if (/^php[0-9.]*$/.test(program)) return "php";
  if (/^lua[0-9.]*$/.test(program)) return "lua";
  return program;
}

/** The value of `-x VALUE`, `-xVALUE`, `--long VALUE` or `--long=VALUE`. */
function optionValues(args: readonly string[], short: string | undefined, long: readonly string[]): string[] {
  const values: string[] = [];
  args.forEach((arg, index) => {
    const equals = arg.indexOf("=");
    if (arg.startsWith("--") && equals > 0 && long.includes(arg.slice(0, equals))) values.push(arg.slice(equals + 1));
    else if ((arg === short || long.includes(arg)) && args[index + 1] !== undefined) values.push(args[index + 1] as string);
    else if (short && !arg.startsWith("--") && arg.startsWith(short) && arg.length > short.length) values.push(arg.slice(short.length));
  });
  return values;
}

/** A sed script that runs a command: the `e` command, or the `e` flag of `s///`. */
function sedRunsCommands(script: string): boolean {
  return script.split(/[;\n]/).some((part) => {
    const command = part.trim().replace(/^(\d+|\$|\/(?:[^/\\]|\\.)*\/)(,(\d+|\$|\/(?:[^/\\]|\\.)*\/))?!?\s*/, "");
    if (/^e(\s|$)/.test(command)) return true;
    const substitution = /^s(.)/.exec(command);
    if (!substitution) return false;
    const delimiter = substitution[1] as string;
    const pieces = command.slice(2).split(delimiter);
    return pieces.length >= 3 && /e/.test(pieces[2] ?? "");
  });
}

function sedOpaque(args: readonly string[]): string | undefined {
  if (args.some((arg) => /^(-f|--file)/.test(arg) || (/^-[a-zA-Z]+$/.test(arg) && arg.includes("f") && !arg.startsWith("--"))))
    return "sed runs a script file the analysis cannot see";
  const scripts = optionValues(args, "-e", ["--expression"]);
  if (scripts.length === 0) {
    const first = args.find((arg) => !arg.startsWith("-"));
    if (first !== undefined) scripts.push(first);
  }
  return scripts.some(sedRunsCommands) ? "sed's `e` runs a command" : undefined;
}

function awkOpaque(args: readonly string[]): string | undefined {
  if (args.some((arg) => /^(-f|--file|-E|--exec|-i|--include|-l|--load)(=.*)?$/.test(arg) || /^-f./.test(arg)))
    return "awk runs a program file the analysis cannot see";
  let index = 0;
  while (index < args.length && (args[index] as string).startsWith("-")) index += /^(-v|-F|--assign|--field-separator)$/.test(args[index] as string) ? 2 : 1;
  const program = args[index];
  // system(), pipes to and from commands, and output redirected to files are code the rules cannot see.
  return program === undefined || /system|\||>|getline|@/.test(program) ? "awk's program runs commands or writes files" : undefined;
}

function sshOpaque(args: readonly string[]): string | undefined {
  const options = optionValues(args, "-o", []);
  if (options.some((option) => /^\s*(ProxyCommand|LocalCommand|PermitLocalCommand|KnownHostsCommand|Include|Match)\b/i.test(option)))
    return "an ssh option runs a local command";
  if (args.some((arg) => arg === "-F" || /^-F./.test(arg))) return "ssh reads a configuration file that may run commands";
  return undefined;
}

function gitOpaque(args: readonly string[]): string | undefined {
  if (args.some((arg) => /^ext::/i.test(arg) || /=ext::/i.test(arg))) return "git's ext:: transport runs a command";
  if (args.some((arg) => /^protocol\.(ext\.)?allow=/i.test(arg) || /^-cprotocol\./i.test(arg))) return "git is told to allow transports that run commands";
  const sub = args.find((arg) => !arg.startsWith("-"));
  if (sub === "grep" && args.some((arg) => /^(-O|--open-files-in-pager)/.test(arg))) return "git grep -O runs a pager program";
  if ((sub === "clone" || sub === "init") && args.some((arg) => /^--template(=|$)/.test(arg))) return "a template directory puts hooks into the new repository";
  if (sub === "clone" && args.some((arg) => /^(-c|--config)(=|$)/.test(arg) || /^-c./.test(arg)))
    return "git clone writes configuration into the new repository";
  if (sub === "send-email" && args.some((arg) => /^--(smtp-server|sendmail-cmd|to-cmd|cc-cmd|header-cmd)(=|$)/.test(arg)))
    return "git send-email runs a command given as an option";
  return undefined;
}

function tarOpaque(args: readonly string[]): string | undefined {
  const runs = /^(--checkpoint-action|--to-command|--use-compress-program|--info-script|--new-volume-script|--rsh-command|-I|-F)(=|$)|^-[a-zA-Z]*[IF]/;
  return args.some((arg) => runs.test(arg)) ? "a tar option runs a command" : undefined;
}

function makeOpaque(args: readonly string[]): string | undefined {
  if (args.some((arg) => /^(SHELL|MAKESHELL|\.SHELLFLAGS)=/.test(arg))) return "make runs its recipes through the shell given on the command line";
  const files = optionValues(args, "-f", ["--file", "--makefile"]);
  // `make -f - <<EOF` reaches us as a trailing `-f`: the grammar drops the `-` before a heredoc.
  const trailing = /^(-f|--file|--makefile)$/.test(args.at(-1) ?? "");
  if (trailing || files.some((file) => GENERATED_FILE.test(file))) return "make reads its makefile from its input";
  if (args.some((arg) => /^--eval(=|$)|^-E/.test(arg))) return "make is given inline makefile code";
  return undefined;
}

const NPM_PROGRAM_KEYS = /^(node-options|script-shell|shell|git|editor|browser|viewer)(=|$)/;

function npmOpaque(args: readonly string[]): string | undefined {
  if (args.some((arg) => arg.startsWith("--") && NPM_PROGRAM_KEYS.test(arg.slice(2)))) return "an npm option makes it run a program or pass options to node";
  if (args.some((arg) => /^(-c|--call)(=|$)/.test(arg))) return "npm exec -c runs a shell command";
  const set = args.findIndex((arg) => arg === "set");
  if (set >= 0 && args.slice(set + 1).some((arg) => NPM_PROGRAM_KEYS.test(arg))) return "npm configuration that names a program runs it later";
  return undefined;
}

/** Why this command's effect cannot be seen, or undefined when the analysis sees what it runs. */
export function opaqueReason(argv: readonly string[]): string | undefined {
  const program = programName(argv[0] ?? "");
  const args = argv.slice(1);
  const interpreter = interpreterName(program);
  const inline = INLINE_CODE[interpreter];
  if (inline && args.some((arg) => arg !== "" && inline.test(arg))) return `${program} is given code inline`;
  if (STDIN_INTERPRETERS.has(interpreter)) {
    const operand = args.find((arg) => !arg.startsWith("-") || arg === "-");
    const stdin =
      operand === undefined
        ? !args.some((arg) => /^(-m|--version|-V|--help|-h)$/.test(arg) || (interpreter === "python" && /^-[a-zA-Z]*m/.test(arg)))
        : GENERATED_FILE.test(operand);
    if (stdin && !args.some((arg) => /^(--version|-v|-V|--help|-h)$/.test(arg))) return `${program} reads its program from its input`;
  }
  if (AWKS.has(program)) return awkOpaque(args);
  switch (program) {
    case "sed":
    case "gsed":
      return sedOpaque(args);
    case "ssh":
    case "scp":
    case "sftp":
      return sshOpaque(args);
    case "rsync":
      return args.some((arg) => /^(-e|--rsh)(=|$)|^-[a-zA-Z]*e/.test(arg)) ? "rsync runs a remote shell command given as an option" : undefined;
    case "git":
      return gitOpaque(args);
    case "tar":
    case "gtar":
    case "bsdtar":
      return tarOpaque(args);
    case "make":
    case "gmake":
      return makeOpaque(args);
    case "npm":
    case "npx":
    case "pnpm":
    case "yarn":
      return npmOpaque(args);
    case "zip":
      return args.some((arg) => /^(-TT|--unzip-command)(=|$)/.test(arg)) ? "zip -TT runs a command to test the archive" : undefined;
    case "man":
      return args.some((arg) => /^(-P|--pager|-H|--html)(=|$)|^-P./.test(arg)) ? "man runs the pager or browser given as an option" : undefined;
    case "parallel": {
      // With no command template, parallel runs each argument (or input line) as a command.
      const end = args.findIndex((arg) => /^:::+$/.test(arg));
      const before = end < 0 ? args : args.slice(0, end);
      let template = 0;
      for (let index = 0; index < before.length; index++) {
        const arg = before[index] as string;
        if (/^(-j|--jobs|-S|--sshlogin|-a|--arg-file|--delay|--timeout|--joblog|--results|-d|--delimiter|-I|--tmpdir)$/.test(arg)) index++;
        else if (!arg.startsWith("-")) template++;
      }
      return template === 0 ? "parallel runs its arguments or input lines as commands" : undefined;
    }
    case "enable":
      return args.some((arg) => /^-[a-zA-Z]*f/.test(arg)) ? "enable -f loads a builtin from a shared library" : undefined;
    case "source":
    case ".": {
      const file = args[0];
      return file === undefined || GENERATED_FILE.test(file) ? "it sources code generated while it runs" : undefined;
    }
    default:
      return undefined;
  }
}

/** Shells reading their script: from a generated file (`bash <(…)`, `sh /dev/stdin`) or their input (`… | sh`). */
export function shellScriptOpaque(mode: "file" | "stdin", operand: string | undefined, fedByHeredoc: boolean): string | undefined {
  if (mode === "stdin") return fedByHeredoc ? undefined : "a shell reads its script from its input";
  return operand !== undefined && GENERATED_FILE.test(operand) ? "a shell runs a script generated while it runs" : undefined;
}

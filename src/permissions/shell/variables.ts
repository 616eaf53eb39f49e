/**
 * Environment variables that decide what runs. Setting one of the first kind hands a command to a program
 * (git runs $GIT_EXTERNAL_DIFF), so its value is parsed as a command. Setting one of the second kind changes
 * which program a name means or injects code (PATH, LD_PRELOAD), which no analysis can follow. A third kind
 * makes a program write a file (GIT_TRACE=/path and its family): the file is a write like any other. A proxy
 * variable (http_proxy…) sends every connection to the proxy: its URL is one the command reaches.
 */
export const COMMAND_VARIABLES =
  /^(GIT_EXTERNAL_DIFF|GIT_SSH|GIT_SSH_COMMAND|GIT_PAGER|GIT_EDITOR|GIT_SEQUENCE_EDITOR|GIT_ASKPASS|SSH_ASKPASS|PAGER|MANPAGER|EDITOR|VISUAL|LESSOPEN|LESSCLOSE|BROWSER|SUDO_ASKPASS)$/;
export const HIJACK_VARIABLES =
  /^(PATH|CDPATH|LD_[A-Z_]+|DYLD_[A-Z_]+|BASH_ENV|ENV|IFS|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|PS4|NODE_OPTIONS|NODE_PATH|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|GIT_EXEC_PATH|GIT_CONFIG[A-Z_]*|GIT_DIR|GIT_WORK_TREE|GIT_TEMPLATE_DIR|GIT_ALLOW_PROTOCOL|GIT_PROTOCOL_FROM_USER|BASH_FUNC_[A-Za-z0-9_%]+|(BASH_ALIASES|BASH_CMDS)(\[.*\])?)$/s;
/** npm reads its configuration from npm_config_* in any case: these make it run a program or pass node options. */
const NPM_HIJACK = /^npm_config_(node_options|script_shell|shell|git|editor|browser|viewer)$/i;
/** git writes its traces to the file an absolute path names (1, 2, true: stderr; 3-9: a descriptor). */
const GIT_TRACE = /^GIT_TRACE[A-Z0-9_]*$/;
/** Proxies: every connection the command makes goes there. */
const PROXY_VARIABLES = /^(http_proxy|https_proxy|all_proxy|ftp_proxy)$/i;
/** Variables whose value is a file or directory the program writes. */
const WRITE_VARIABLES = /^(SSLKEYLOGFILE|NODE_V8_COVERAGE|LESSHISTFILE|HISTFILE|PYTHONPYCACHEPREFIX|GCOV_PREFIX)$/;

export type VariableEffect =
  | { kind: "command"; value: string }
  | { kind: "hijack"; reason: string }
  | { kind: "write"; path: string }
  | { kind: "opaque"; reason: string }
  | { kind: "url"; url: string }
  | { kind: "unknown-url"; reason: string }
  | undefined;

export function variableEffect(name: string, value: string, literal: boolean): VariableEffect {
  if (COMMAND_VARIABLES.test(name)) {
    return literal ? { kind: "command", value } : { kind: "hijack", reason: `${name} is set to a command only known when it runs` };
  }
  if (HIJACK_VARIABLES.test(name) || NPM_HIJACK.test(name)) return { kind: "hijack", reason: `it sets ${name}, which changes what programs run` };
  if (GIT_TRACE.test(name)) {
    if (!literal || /^af_unix:/i.test(value)) return { kind: "opaque", reason: `${name} makes git write its trace somewhere only known when it runs` };
    return value.startsWith("/") ? { kind: "write", path: value } : undefined;
  }
  if (PROXY_VARIABLES.test(name) && value !== "") {
    return literal ? { kind: "url", url: value } : { kind: "unknown-url", reason: `${name} sends connections through a proxy only known when it runs` };
  }
  if (WRITE_VARIABLES.test(name) && value !== "") {
    return literal ? { kind: "write", path: value } : { kind: "opaque", reason: `${name} makes a program write a file only known when it runs` };
  }
  return undefined;
}

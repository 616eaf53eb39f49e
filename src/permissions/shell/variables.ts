/**
 * Environment variables that decide what runs. Setting one of the first kind hands a command to a program
 * (git runs $GIT_EXTERNAL_DIFF), so its value is parsed as a command. Setting one of the second kind changes
 * which program a name means or injects code (PATH, LD_PRELOAD), which no analysis can follow.
 */
export const COMMAND_VARIABLES = /^(GIT_EXTERNAL_DIFF|GIT_SSH|GIT_SSH_COMMAND|GIT_PAGER|GIT_EDITOR|GIT_SEQUENCE_EDITOR|GIT_ASKPASS|SSH_ASKPASS|PAGER|MANPAGER|EDITOR|VISUAL|LESSOPEN|LESSCLOSE|BROWSER|SUDO_ASKPASS)$/;
export const HIJACK_VARIABLES = /^(PATH|CDPATH|LD_[A-Z_]+|DYLD_[A-Z_]+|BASH_ENV|ENV|IFS|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|PS4|NODE_OPTIONS|NODE_PATH|PYTHONSTARTUP|PYTHONPATH|PYTHONHOME|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|GIT_EXEC_PATH|GIT_CONFIG[A-Z_]*|GIT_DIR|GIT_WORK_TREE|GIT_TEMPLATE_DIR|BASH_FUNC_[A-Za-z0-9_%]+)$/;

export type VariableEffect = { kind: "command"; value: string } | { kind: "hijack"; reason: string } | undefined;

export function variableEffect(name: string, value: string, literal: boolean): VariableEffect {
  if (COMMAND_VARIABLES.test(name)) {
    return literal ? { kind: "command", value } : { kind: "hijack", reason: `${name} is set to a command only known when it runs` };
  }
  if (HIJACK_VARIABLES.test(name)) return { kind: "hijack", reason: `it sets ${name}, which changes what programs run` };
  return undefined;
}

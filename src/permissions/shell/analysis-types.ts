/** What a shell command does, as far as permissions care. */

export interface ShellSegment {
  /** "git push", "rm": the program (its base name) plus its subcommand where it has them. */
  identifier: string;
  argv: string[];
  readOnly: boolean;
  /** The arguments that are not options, as written; `literal` false when only known at run time. */
  operands: { text: string; literal: boolean; base?: string }[];
  /**
   * A wrapper that runs the segments after it (time, timeout, xargs, env, bash -c, eval): deny rules see it,
   * but it needs no approval of its own.
   */
  transparent: boolean;
  /** Where it runs, relative to the command's working directory ("." until a `cd`); absent when only known at run time. */
  directory?: string;
}

/**
 * How a command uses a path: `read` (an argument or an input redirection), `write` (a redirection or tee:
 * needs write approval), `modify` (a program that changes its operand, like rm or cp's target: covered by
 * approving the command, but matched by write rules and checked by the floor).
 */
export type PathAccess = "read" | "write" | "modify";

export interface PathMention {
  /** The path as written, with `~` and $HOME expanded; meaningless when `literal` is false. */
  text: string;
  /** Known before running (no variables or substitutions in it). */
  literal: boolean;
  access: PathAccess;
  /** The directory a relative path is relative to, after `cd` in the same command (relative to the cwd). */
  base?: string;
  /** A directory under which the command writes files it does not name (tar -x, patch -p1, unzip). */
  unnamedFiles?: boolean;
}

export interface ShellAnalysis {
  segments: ShellSegment[];
  paths: PathMention[];
  urls: string[];
  /** Why it reaches URLs only known when it runs (`curl $URL`, `wget -i list`): only --allow-all-urls allows them. */
  unknownUrls: string[];
  /** Commands that follow redirects or links (`curl -L`, wget): where they end up is only known when they run. */
  follows: string[];
  /** Why the analysis could not follow the command; empty when it understood all of it. */
  unparsed: string[];
  /**
   * Parts it understood as commands whose effect it cannot see (inline interpreter code, sed's `e`, a shell
   * reading its input): no allow rule approves them, nor --allow-all-tools while a deny rule is in force.
   */
  opaque: string[];
  /** Every segment is a known read-only use, nothing writes, nothing was beyond the analysis. */
  readOnly: boolean;
}

export interface AnalysisOptions {
  /** Git aliases from the user's and the repository's git config (name → definition). */
  gitAliases?: Readonly<Record<string, string>>;
  env?: NodeJS.ProcessEnv;
  homeDir?: string;
}

/**
 * Parses a shell command (simple-parser.ts for simple command lines, else tree-sitter: the same tree either
 * way) and lists what it would run: every command in every list,
 * pipeline, subshell, substitution, process substitution, script fed to a shell, and every program run
 * through a wrapper; the paths and URLs it names; the files it writes. What the analysis cannot follow is
 * reported as `unparsed`, which is never approved without asking.
 */
import os from "node:os";
import path from "node:path";
import { expandBraces } from "../../util/brace-expansion.js";
import type { AnalysisOptions, PathAccess, PathMention, ShellAnalysis, ShellSegment } from "./analysis-types.js";
import { followGit } from "./git.js";
import { BeyondSimpleParser, simpleParserOnly, withTreeSitter } from "./parser.js";
import type { ScriptParser, ShellNode } from "./syntax-node.js";
import { fileUrlPaths } from "../canonical-url.js";
import { destinationsOf } from "./destinations.js";
import { fetcherUse, type FetcherUse } from "./fetchers.js";
import { withScheme } from "./fetch-use.js";
import { opaqueReason, shellScriptOpaque } from "./opaque.js";
import { commandParts, redirectionArguments, redirectionTarget } from "./redirections.js";
import { commandIdentifier, isReadOnlyInvocation, programName } from "./read-only.js";
import { variableEffect } from "./variables.js";
import { evaluateWord, type WordValue } from "./words.js";
import { SHELLS, shellInvocation, unwrap, type WrapperSink } from "./wrappers.js";

export type { AnalysisOptions, PathMention, ShellAnalysis, ShellSegment } from "./analysis-types.js";

/** Programs whose arguments are text, not paths. */
const NO_PATH_ARGS = new Set(["echo", "printf", "test", "[", "true", "false", "sleep", "seq", "expr", "trap", "export", "unset"]);
/** Programs that change every operand (mv's sources too); where programs write is in destinations.ts. */
const MODIFIES_ALL = new Set(["rm", "rmdir", "touch", "mkdir", "truncate", "shred", "unlink", "chmod", "chown", "chgrp", "chattr", "setfacl", "mv", "tee"]);
const HARMLESS_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;
const URL = /^[a-z][a-z0-9+.-]*:\/\//i;
const MAX_DEPTH = 8;

class Analyzer {
  readonly segments: ShellSegment[] = [];
  readonly paths: PathMention[] = [];
  readonly urls: string[] = [];
  readonly unknownUrls: string[] = [];
  readonly follows: string[] = [];
  readonly unparsed: string[] = [];
  readonly opaque: string[] = [];
  private readonly env: NodeJS.ProcessEnv;
  private readonly home: string;
  /** Where relative paths point after a `cd` earlier in the command; undefined when it is not known. */
  private base: string | undefined = ".";
  /** Aliases defined earlier in the command (`alias ls=rm; ls x` runs rm). */
  private readonly aliases = new Map<string, string>();
  /** Set while the command being analysed gets its input from a heredoc or here-string (parsed as its script). */
  private stdinIsParsedScript = false;

  constructor(
    private readonly parse: ScriptParser,
    private readonly options: AnalysisOptions,
  ) {
    this.env = options.env ?? process.env;
    this.home = options.homeDir ?? os.homedir();
  }

  script(text: string, depth: number): void {
    if (depth > MAX_DEPTH) {
      this.unparsed.push("commands nested too deeply");
      return;
    }
    const parsed = this.parse(text);
    if (!parsed) {
      this.unparsed.push("the parser gave up");
      return;
    }
    try {
      this.walk(parsed.root, depth);
    } finally {
      parsed.dispose();
    }
  }

  private word(node: ShellNode): WordValue {
    const value = evaluateWord(node, this.env);
    if (!value.literal || !value.text.startsWith("~") || (node.type !== "word" && node.type !== "concatenation")) return value;
    if (value.text === "~" || value.text.startsWith("~/")) return { ...value, text: this.home + value.text.slice(1) };
    return { ...value, literal: false }; // ~user: another user's home
  }

  private addPath(value: WordValue, access: PathAccess): void {
    if (value.literal && HARMLESS_TARGETS.test(value.text)) return;
    // A file: URL names a path (curl reads it): the path gate sees it, `..` and links included.
    if (value.literal && /^file:/i.test(value.text)) {
      const local = fileUrlPaths(value.text);
      if (local) for (const text of local.filter((file) => !HARMLESS_TARGETS.test(file))) this.paths.push({ text, literal: true, access });
      else this.paths.push({ text: `${value.text} (a file on another host)`, literal: false, access });
      return;
    }
    if (value.literal && URL.test(value.text)) {
      this.urls.push(value.text);
      return;
    }
    const literal = value.literal && this.base !== undefined;
    const texts = literal && /\{[^}]*,[^}]*\}/.test(value.text) ? expandBraces(value.text) : [value.text];
    for (const text of texts) this.paths.push({ text, literal, access, ...(literal && this.base !== "." ? { base: this.base } : {}) });
  }

  private assignment(name: string, value: WordValue, depth: number): void {
    const effect = variableEffect(name, value.text, value.literal);
    if (effect?.kind === "command") this.script(effect.value, depth + 1);
    else if (effect?.kind === "hijack") this.unparsed.push(effect.reason);
    else if (effect?.kind === "write") this.addPath({ text: effect.path, literal: true, glob: false }, "write");
    else if (effect?.kind === "opaque") this.opaque.push(effect.reason);
    else if (effect?.kind === "url") this.urls.push(withScheme(effect.url, "http"));
    else if (effect?.kind === "unknown-url") this.unknownUrls.push(effect.reason);
  }

  private walk(node: ShellNode, depth: number): void {
    if (node.type === "ERROR" || node.isMissing) {
      this.unparsed.push(`cannot parse "${node.text.slice(0, 60)}"`);
      return;
    }
    switch (node.type) {
      case "command":
        this.command(node, [], depth);
        return;
      case "redirected_statement": {
        const body = node.childForFieldName("body");
        const redirects = node.namedChildren.filter((child): child is ShellNode => child !== null && child.type.endsWith("_redirect"));
        // `X=1 <<EOF cat a`: the grammar hangs the command's words on the heredoc after the assignments.
        const assignments = body?.type === "variable_assignment" || body?.type === "variable_assignments";
        if (body?.type === "command" || (body && assignments && redirects.some((redirect) => redirectionArguments(redirect).length > 0)))
          this.command(body, redirects, depth);
        else {
          if (body) this.walk(body, depth);
          for (const redirect of redirects) this.strayRedirect(redirect, depth);
        }
        return;
      }
      case "variable_assignment": {
        const value = node.childForFieldName("value");
        this.assignment(node.childForFieldName("name")?.text ?? "", value ? this.word(value) : { text: "", literal: true, glob: false }, depth);
        break;
      }
      default:
        if (node.type.endsWith("_redirect")) {
          this.strayRedirect(node, depth);
          return;
        }
        break;
    }
    for (const child of node.children) if (child) this.walk(child, depth);
  }

  /**
   * A redirection of something other than a simple command (`{ ls; } > f`). Words after it would be a
   * command's arguments, but there is no command: bash refuses the line, and the analysis does not guess.
   */
  private strayRedirect(node: ShellNode, depth: number): void {
    this.redirect(node, false, depth);
    const words = redirectionArguments(node);
    const text = words.map((word) => word.text).join(" ");
    if (text) this.unparsed.push(`words after a redirection belong to no command ("${text.slice(0, 60)}")`);
    for (const word of words) this.walkNested(word, depth);
  }

  /**
   * A redirection; `feedsShell` when the command reading it is a shell, so its input is a script. The words
   * tree-sitter hangs on it (redirections.ts) are the command's arguments: command() reads them, not this.
   */
  private redirect(node: ShellNode, feedsShell: boolean, depth: number): void {
    const carried = new Set(redirectionArguments(node).map((word) => word.startIndex));
    const others = node.children.filter((child): child is ShellNode => child !== null && !carried.has(child.startIndex));
    if (node.type === "heredoc_redirect" || node.type === "herestring_redirect") {
      const body = node.type === "heredoc_redirect" ? node.namedChildren.find((child) => child?.type === "heredoc_body") : node.namedChildren.at(-1);
      if (feedsShell && body) {
        const value = node.type === "heredoc_redirect" ? { text: body.text, literal: true } : this.word(body);
        if (value.literal) this.script(value.text, depth + 1);
        else this.unparsed.push("a shell reads a script only known when it runs");
      }
      // `cat <<EOF > f`: the redirections written after the heredoc's start are the command's too.
      for (const child of others) {
        if (child.type.endsWith("_redirect")) this.redirect(child, feedsShell, depth);
        else this.walk(child, depth);
      }
      return;
    }
    // Substitutions in the target run; a piece the grammar could not read (`3<>`) is unparsed.
    for (const child of others) this.walk(child, depth);
    const { operator, target } = redirectionTarget(node);
    if (!target) return;
    const value = this.word(target);
    if (/[<>]&$/.test(operator) && /^(\d+|-)$/.test(value.text)) return; // descriptor duplication
    this.addPath(value, operator.includes(">") ? "write" : "read");
  }

  /** A simple command (redirections.ts: commandParts); `outerRedirects` are the redirections written after it. */
  private command(node: ShellNode, outerRedirects: ShellNode[], depth: number): void {
    // Bash gives the words written after a redirection to the command (`find > f . -delete` runs `find . -delete`).
    const { words: wordNodes, carried, redirects } = commandParts(node, outerRedirects);
    const words = wordNodes.map((word) => this.word(word));
    // Substitutions inside the words run too, and assignments before the command take effect.
    if (node.type === "command") {
      for (const child of node.children) if (child && !child.type.endsWith("_redirect")) this.walkNested(child, depth);
    } else this.walkNested(node, depth);
    for (const word of carried) this.walkNested(word, depth);
    const feedsShell = words.some((word) => word.literal && SHELLS.has(programName(word.text)));
    for (const redirect of redirects) this.redirect(redirect, feedsShell, depth);
    const program = words[0];
    if (!program) return;
    if (!program.literal) {
      this.unparsed.push(`the program name "${program.text}" is only known when it runs`);
      return;
    }
    const alias = this.aliases.get(program.text);
    if (alias !== undefined) {
      // What bash runs: the alias's text in place of the name, followed by the rest of the words as written.
      this.script([alias, ...wordNodes.slice(1).map((word) => word.text)].join(" "), depth + 1);
      return;
    }
    this.stdinIsParsedScript = feedsShell && redirects.some((redirect) => redirect.type === "heredoc_redirect" || redirect.type === "herestring_redirect");
    try {
      this.argv(
        words.map((word) => word.text),
        words,
        false,
        depth,
      );
    } finally {
      this.stdinIsParsedScript = false;
    }
  }

  /** `alias name=value`: remembered so that later uses run what the alias says. */
  private defineAliases(args: string[], words: WordValue[] | undefined): void {
    args.forEach((arg, index) => {
      const definition = /^([^=\s]+)=(.*)$/s.exec(arg);
      if (!definition) return;
      // Like `$CMD x`: the program the alias runs is only known when it runs.
      if (words?.[index + 1]?.literal === false) this.unparsed.push(`the alias ${definition[1]} is defined with a value only known when it runs`);
      else this.aliases.set(definition[1] as string, definition[2] as string);
    });
  }

  /** Why what this command runs cannot be seen, if it cannot. */
  private opaqueReason(argv: string[], effective: string[], operandsUnknown: boolean): string | undefined {
    const program = programName(effective[0] ?? "");
    if (SHELLS.has(program)) {
      const invocation = shellInvocation(effective);
      // xargs -I{} and find -exec put their input into the script's text: data becomes code.
      if (operandsUnknown && invocation.mode === "command" && invocation.script?.includes("{}")) return "its input is pasted into a shell script";
      if (invocation.mode === "stdin") return shellScriptOpaque("stdin", undefined, this.stdinIsParsedScript);
      if (invocation.mode === "file") return shellScriptOpaque("file", invocation.file, false);
      return undefined;
    }
    return opaqueReason(argv) ?? (effective !== argv ? opaqueReason(effective) : undefined);
  }

  private walkNested(node: ShellNode, depth: number): void {
    if (node.type === "variable_assignment") {
      this.walk(node, depth);
      return;
    }
    if (node.type === "command_substitution" || node.type === "process_substitution") {
      for (const child of node.namedChildren) if (child) this.walk(child, depth + 1);
      return;
    }
    for (const child of node.children) if (child) this.walkNested(child, depth);
  }

  /** What a program that fetches reaches (fetchers.ts): its URLs, the files its options name, what it follows. */
  private fetches(argv: string[], use: FetcherUse, words: WordValue[] | undefined): void {
    const program = programName(argv[0] ?? "");
    const literal = (index: number) => index < 0 || (words?.[index + 1]?.literal ?? true);
    for (const { index, text } of use.urls) {
      if (/^file:/i.test(text)) this.addPath({ text, literal: literal(index), glob: false }, "read");
      else if (literal(index)) this.urls.push(text);
      else this.unknownUrls.push(`${program} reaches a URL only known when it runs (${words?.[index + 1]?.text ?? text})`);
    }
    for (const { index, text, access, unnamedFiles } of use.paths) {
      const before = this.paths.length;
      this.addPath({ text, literal: literal(index), glob: false }, access);
      if (unnamedFiles) for (const mention of this.paths.slice(before)) mention.unnamedFiles = true;
    }
    this.unknownUrls.push(...use.unknownUrls);
    if (use.follows) this.follows.push(use.follows);
    if (use.opaque) this.opaque.push(`\`${quoteArgv(argv).slice(0, 80)}\`: ${use.opaque}`);
  }

  /** Follows `cd` so later relative paths are checked where they really point. */
  private changeDirectory(program: string, operands: { text: string; literal: boolean }[]): void {
    if (program === "popd") this.base = undefined;
    if (program !== "cd" && program !== "pushd") return;
    const target = operands[0];
    if (!target) this.base = this.home;
    else if (!target.literal || target.text === "-" || this.base === undefined) this.base = undefined;
    else this.base = path.isAbsolute(target.text) ? target.text : path.join(this.base, target.text);
  }

  /** A command given as words: follows wrappers and git, then records the segment and its paths. */
  argv(argv: string[], words: WordValue[] | undefined, operandsUnknown: boolean, depth: number): void {
    if (depth > MAX_DEPTH) {
      this.unparsed.push("commands nested too deeply");
      return;
    }
    // An alias reached through a wrapper (`alias s='sudo '` makes bash expand the next word too): follow it.
    const alias = words === undefined ? this.aliases.get(argv[0] ?? "") : undefined;
    if (alias !== undefined) {
      this.script(`${alias} ${quoteArgv(argv.slice(1))}`, depth + 1);
      return;
    }
    const sink: WrapperSink = {
      command: (inner, options) => this.argv(inner, undefined, options?.operandsUnknown ?? false, depth + 1),
      script: (text) => this.script(text, depth + 1),
      unparsed: (reason) => this.unparsed.push(reason),
      opaque: (reason) => this.opaque.push(reason),
      path: (text, access) => this.addPath({ text, literal: true, glob: false }, access),
      assignment: (name, value) => this.assignment(name, { text: value, literal: true, glob: false }, depth),
    };
    let effective = argv;
    let unsafe = false;
    if (programName(argv[0] ?? "") === "git") {
      const git = followGit(argv, this.options.gitAliases ?? {}, sink);
      effective = git.argv;
      unsafe = git.unsafe;
    }
    const wrapper = unwrap(effective, sink);
    const opaque = this.opaqueReason(argv, effective, operandsUnknown);
    if (opaque) this.opaque.push(`\`${quoteArgv(argv).slice(0, 80)}\`: ${opaque}`);
    if (programName(effective[0] ?? "") === "alias") this.defineAliases(effective.slice(1), words);
    // `hash -p /bin/rm ls` makes `ls` run /bin/rm: an alias by another name.
    const hashed = programName(effective[0] ?? "") === "hash" ? effective.indexOf("-p") : -1;
    if (hashed > 0 && effective[hashed + 1] !== undefined && effective[hashed + 2] !== undefined)
      this.aliases.set(effective[hashed + 2] as string, quoteArgv([effective[hashed + 1] as string]));
    const aligned = effective === argv ? words : undefined; // git's global options shift the words
    const operands = effective
      .slice(1)
      .map((text, index) => ({ text, literal: aligned?.[index + 1]?.literal ?? true }))
      .filter((operand) => !(operand.literal && operand.text.startsWith("-")))
      .map((operand) => ({
        ...operand,
        literal: operand.literal && this.base !== undefined,
        ...(this.base !== "." && this.base !== undefined ? { base: this.base } : {}),
      }));
    if (operandsUnknown) operands.push({ text: "(arguments read from input)", literal: false });
    this.segments.push({
      identifier: commandIdentifier(effective),
      argv: effective,
      operands,
      readOnly: !unsafe && (wrapper?.transparent === true || isReadOnlyInvocation(effective)),
      transparent: wrapper?.transparent === true,
      ...(this.base !== undefined ? { directory: this.base } : {}),
    });
    if (wrapper?.transparent) return; // the inner command's arguments are recorded by its own segment
    const program = programName(effective[0] ?? "");
    if (operandsUnknown) this.paths.push({ text: "(arguments read from input)", literal: false, access: MODIFIES_ALL.has(program) ? "modify" : "read" });
    if (NO_PATH_ARGS.has(program)) return;
    if (program === "cd" || program === "pushd") {
      // `cd` alone goes home; `cd -` goes back to a directory the analysis does not know.
      if (operands.length === 0) this.addPath({ text: this.home, literal: true, glob: false }, "read");
      if (operands[0]?.text === "-") this.paths.push({ text: "- (the previous directory)", literal: false, access: "read" });
    }
    const destinations = destinationsOf(program, effective.slice(1));
    const fetches = fetcherUse(program, effective.slice(1));
    if (fetches && operandsUnknown) fetches.unknownUrls.push(`${program} reaches URLs read from its input`);
    if (fetches) this.fetches(effective, fetches, aligned);
    else
      effective.slice(1).forEach((text, index) => {
        const value = aligned?.[index + 1] ?? { text, literal: true, glob: false };
        if (value.literal && text.startsWith("-")) {
          const equals = text.indexOf("=");
          if (equals > 0 && text.slice(equals + 1).includes("/")) this.addPath({ text: text.slice(equals + 1), literal: true, glob: false }, "read");
          return;
        }
        if (program === "tee" || destinations.indices.has(index) || (program === "dd" && text.startsWith("of=")))
          this.addPath({ ...value, text: text.replace(/^of=/, "") }, "write");
        else this.addPath(value, MODIFIES_ALL.has(program) ? "modify" : "read");
      });
    for (const { index, text } of destinations.inline) this.addPath({ text, literal: aligned?.[index + 1]?.literal ?? true, glob: false }, "write");
    if (destinations.unnamedUnder !== undefined) {
      const before = this.paths.length;
      this.addPath({ text: destinations.unnamedUnder, literal: true, glob: false }, "write");
      for (const mention of this.paths.slice(before)) mention.unnamedFiles = true;
    }
    this.changeDirectory(program, operands);
  }
}

/** argv as a person would type it again, for messages: words with spaces or quotes in single quotes. */
function quoteArgv(argv: readonly string[]): string {
  return argv.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`)).join(" ");
}

/**
 * The analysis with the small parser for every script it covers. Tree-sitter (WebAssembly, costly to compile
 * the first time in a process) is loaded only when a script in the command (the command itself, a `bash -c`
 * script, an alias's text) is beyond it; the analysis then starts over.
 */
export async function analyzeShellCommand(command: string, options: AnalysisOptions = {}): Promise<ShellAnalysis> {
  try {
    return analyzeWithParser(command, options, simpleParserOnly);
  } catch (error) {
    if (!(error instanceof BeyondSimpleParser)) throw error;
  }
  return analyzeWithParser(command, options, await withTreeSitter());
}

/** The analysis of `command` with the scripts in it parsed by `parse` (tests compare parsers with it). */
export function analyzeWithParser(command: string, options: AnalysisOptions, parse: ScriptParser): ShellAnalysis {
  const analyzer = new Analyzer(parse, options);
  analyzer.script(command, 0);
  const { segments, paths, urls, unknownUrls, follows, unparsed, opaque } = analyzer;
  const writes = paths.some((mention) => mention.access !== "read");
  return {
    segments,
    paths,
    urls,
    unknownUrls,
    follows,
    unparsed,
    opaque,
    readOnly: unparsed.length === 0 && opaque.length === 0 && !writes && segments.length > 0 && segments.every((segment) => segment.readOnly),
  };
}

/**
 * Parses a shell command with tree-sitter and lists what it would run: every command in every list,
 * pipeline, subshell, substitution, process substitution, heredoc fed to a shell, and every program run
 * through a wrapper; the paths and URLs it names; the files it writes through redirections. What the
 * analysis cannot follow is reported as `unparsed`, which is never approved without asking.
 */
import os from "node:os";
import type { Parser } from "@vscode/tree-sitter-wasm";
import type { AnalysisOptions, PathMention, ShellAnalysis, ShellSegment } from "./analysis-types.js";
import { followGit } from "./git.js";
import { loadBashParser, type SyntaxNode } from "./parser.js";
import { commandIdentifier, isReadOnlyInvocation, programName } from "./read-only.js";
import { evaluateWord, type WordValue } from "./words.js";
import { unwrap, type WrapperSink } from "./wrappers.js";

export type { AnalysisOptions, PathMention, ShellAnalysis, ShellSegment } from "./analysis-types.js";

/** Variables that change which program runs or how: a command setting them is never read-only. */
const DANGEROUS_VARIABLES = /^(PATH|LD_[A-Z_]+|DYLD_[A-Z_]+|BASH_ENV|ENV|IFS|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|PS4|GIT_[A-Z_]+|PAGER|EDITOR|VISUAL|NODE_OPTIONS|PYTHONSTARTUP|PYTHONPATH|PERL5OPT|RUBYOPT)$/;
/** Programs whose arguments are text, not paths. */
const NO_PATH_ARGS = new Set(["echo", "printf", "test", "[", "true", "false", "sleep", "seq", "expr"]);
const HARMLESS_TARGETS = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;
const URL = /^[a-z][a-z0-9+.-]*:\/\//i;
const MAX_DEPTH = 8;

class Analyzer {
  readonly segments: ShellSegment[] = [];
  readonly paths: PathMention[] = [];
  readonly urls: string[] = [];
  readonly unparsed: string[] = [];
  private readonly env: NodeJS.ProcessEnv;
  private readonly home: string;

  constructor(
    private readonly parser: Parser,
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
    const tree = this.parser.parse(text);
    if (!tree) {
      this.unparsed.push("the parser gave up");
      return;
    }
    try {
      this.walk(tree.rootNode, depth);
    } finally {
      tree.delete();
    }
  }

  private word(node: SyntaxNode): WordValue {
    const value = evaluateWord(node, this.env);
    if (value.literal && (value.text === "~" || value.text.startsWith("~/")) && (node.type === "word" || node.type === "concatenation")) {
      return { ...value, text: this.home + value.text.slice(1) };
    }
    return value;
  }

  private addPath(value: WordValue, access: "read" | "write"): void {
    if (value.literal && HARMLESS_TARGETS.test(value.text)) return;
    if (value.literal && URL.test(value.text)) {
      this.urls.push(value.text);
      return;
    }
    this.paths.push({ text: value.text, literal: value.literal, access });
  }

  private walk(node: SyntaxNode, depth: number): void {
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
        const redirects = node.namedChildren.filter((child): child is SyntaxNode => child !== null && child.type.endsWith("_redirect"));
        if (body?.type === "command") this.command(body, redirects, depth);
        else {
          if (body) this.walk(body, depth);
          for (const redirect of redirects) this.redirect(redirect, undefined, depth);
        }
        return;
      }
      case "variable_assignment": {
        const name = node.childForFieldName("name")?.text ?? "";
        if (DANGEROUS_VARIABLES.test(name)) this.unparsed.push(`sets ${name}, which changes what later commands run`);
        break;
      }
      default:
        break;
    }
    for (const child of node.children) if (child) this.walk(child, depth);
  }

  private redirect(node: SyntaxNode, program: string | undefined, depth: number): void {
    if (node.type === "heredoc_redirect") {
      const body = node.namedChildren.find((child) => child?.type === "heredoc_body");
      if (program && ["bash", "sh", "zsh", "dash", "ksh"].includes(program) && body) this.script(body.text, depth + 1);
      for (const child of node.children) if (child) this.walk(child, depth);
      return;
    }
    if (node.type === "herestring_redirect") {
      for (const child of node.children) if (child) this.walk(child, depth);
      return;
    }
    const operator = node.children.find((child) => child !== null && !child.isNamed)?.text ?? "";
    const target = node.childForFieldName("destination") ?? node.namedChildren.filter((child) => child?.type !== "file_descriptor").at(-1) ?? null;
    if (!target) return;
    for (const child of target.children) if (child) this.walk(child, depth);
    const value = this.word(target);
    const duplicatesDescriptor = /[<>]&$/.test(operator) && /^(\d+|-)$/.test(value.text);
    if (duplicatesDescriptor) return;
    const writes = operator.includes(">");
    this.addPath(value, writes ? "write" : "read");
  }

  private command(node: SyntaxNode, outerRedirects: SyntaxNode[], depth: number): void {
    const words: WordValue[] = [];
    const redirects = [...outerRedirects];
    let unsafeEnvironment = false;
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === "variable_assignment") {
        if (DANGEROUS_VARIABLES.test(child.childForFieldName("name")?.text ?? "")) unsafeEnvironment = true;
      } else if (child.type.endsWith("_redirect")) redirects.push(child);
      else if (child.type === "command_name") {
        const inner = child.namedChildren[0];
        words.push(this.word(inner ?? child));
      } else if (child.type !== "comment") words.push(this.word(child));
    }
    // Substitutions inside the words and assignments run too.
    for (const child of node.children) {
      if (child && !child.type.endsWith("_redirect")) this.walkNested(child, depth);
    }
    const program = words[0];
    for (const redirect of redirects) this.redirect(redirect, program?.literal ? programName(program.text) : undefined, depth);
    if (!program) return;
    if (!program.literal) {
      this.unparsed.push(`the program name "${program.text}" is only known when it runs`);
      return;
    }
    this.argv(words.map((word) => word.text), words, { unsafeEnvironment, operandsUnknown: false }, depth);
  }

  private walkNested(node: SyntaxNode, depth: number): void {
    if (node.type === "command_substitution" || node.type === "process_substitution") {
      for (const child of node.namedChildren) if (child) this.walk(child, depth + 1);
      return;
    }
    for (const child of node.children) if (child) this.walkNested(child, depth);
  }

  /** A command given as words: follows wrappers and git, then records the segment and its paths. */
  argv(argv: string[], words: WordValue[] | undefined, flags: { unsafeEnvironment: boolean; operandsUnknown: boolean }, depth: number): void {
    if (depth > MAX_DEPTH) {
      this.unparsed.push("commands nested too deeply");
      return;
    }
    const sink: WrapperSink = {
      command: (inner, options) => this.argv(inner, undefined, { unsafeEnvironment: flags.unsafeEnvironment, operandsUnknown: options?.operandsUnknown ?? false }, depth + 1),
      script: (text) => this.script(text, depth + 1),
      unparsed: (reason) => this.unparsed.push(reason),
      path: (text, access) => this.addPath({ text, literal: true, glob: false }, access),
    };
    let effective = argv;
    let unsafe = flags.unsafeEnvironment;
    if (programName(argv[0] ?? "") === "git") {
      const git = followGit(argv, this.options.gitAliases ?? {}, sink);
      effective = git.argv;
      unsafe ||= git.unsafe;
    }
    const wrapper = unwrap(effective, sink);
    const aligned = effective === argv ? words : undefined; // git's global options shift the words
    const operands = effective
      .slice(1)
      .map((text, index) => ({ text, literal: aligned?.[index + 1]?.literal ?? true }))
      .filter((operand) => !(operand.literal && operand.text.startsWith("-")));
    if (flags.operandsUnknown) operands.push({ text: "(arguments read from input)", literal: false });
    this.segments.push({
      identifier: commandIdentifier(effective),
      argv: effective,
      operands,
      readOnly: !unsafe && (wrapper?.transparent === true || isReadOnlyInvocation(effective)),
      transparent: wrapper?.transparent === true,
    });
    if (wrapper?.transparent) return; // the inner command's arguments are recorded by its own segment
    const program = programName(effective[0] ?? "");
    if (flags.operandsUnknown) this.paths.push({ text: "(arguments read from input)", literal: false, access: "read" });
    if (NO_PATH_ARGS.has(program)) return;
    // `cd` with no operand goes home; later relative paths are checked against the working directory,
    // which is safe only because the directory changed to is itself checked here.
    if ((program === "cd" || program === "pushd") && effective.length === 1) this.addPath({ text: this.home, literal: true, glob: false }, "read");
    effective.slice(1).forEach((text, index) => {
      const value = aligned?.[index + 1] ?? { text, literal: true, glob: false };
      if (value.literal && text.startsWith("-")) {
        const equals = text.indexOf("=");
        if (equals > 0 && text.slice(equals + 1).includes("/")) this.addPath({ text: text.slice(equals + 1), literal: true, glob: false }, "read");
        return;
      }
      if (program === "tee" || (program === "dd" && text.startsWith("of="))) this.addPath({ ...value, text: text.replace(/^of=/, "") }, "write");
      else this.addPath(value, "read");
    });
  }
}

export async function analyzeShellCommand(command: string, options: AnalysisOptions = {}): Promise<ShellAnalysis> {
  const parser = await loadBashParser();
  const analyzer = new Analyzer(parser, options);
  analyzer.script(command, 0);
  const { segments, paths, urls, unparsed } = analyzer;
  const writes = paths.some((mention) => mention.access === "write");
  return {
    segments,
    paths,
    urls,
    unparsed,
    readOnly: unparsed.length === 0 && !writes && segments.length > 0 && segments.every((segment) => segment.readOnly),
  };
}

/**
 * What a shell command does, as far as permissions care: the programs it runs (each with a command
 * identifier such as "git push" and whether that use is read-only), the paths it names, and whether it
 * writes files through redirections.
 *
 * This first version is a conservative tokenizer: anything it does not fully understand (substitutions,
 * subshells, heredocs, unbalanced quotes) is marked `unparsed`, which is never read-only.
 */
import { isReadOnlyInvocation, commandIdentifier } from "./read-only-commands.js";

export interface ShellCommandSegment {
  /** "git push", "ls", "npm test": the program plus its subcommand where the program has them. */
  identifier: string;
  readOnly: boolean;
  /** The words of this segment, quotes removed. */
  argv: string[];
}

export interface ShellCommandAnalysis {
  commands: ShellCommandSegment[];
  possiblePaths: string[];
  possibleUrls: string[];
  hasWriteFileRedirection: boolean;
  /** The command uses constructs this analysis does not follow; treat it as unknown. */
  unparsed: boolean;
  /** Every segment is a known read-only use and nothing writes. */
  readOnly: boolean;
}

const OPERATORS = ["&&", "||", ";;", ";", "|&", "|", "&", "\n"];

interface Word {
  text: string;
  /** The word was written with an unquoted `$`, `*`, `?` or other expansion. */
  expands: boolean;
}

type Token = { kind: "word"; word: Word } | { kind: "op"; op: string } | { kind: "redirect"; op: string };

function tokenize(command: string): { tokens: Token[]; unparsed: boolean } {
  const tokens: Token[] = [];
  let unparsed = false;
  let i = 0;
  let current = "";
  let inWord = false;
  let expands = false;
  const flush = () => {
    if (inWord) tokens.push({ kind: "word", word: { text: current, expands } });
    current = "";
    inWord = false;
    expands = false;
  };
  while (i < command.length) {
    const ch = command[i] as string;
    if (ch === "\\") {
      if (command[i + 1] === "\n") {
        i += 2;
        continue;
      }
      current += command[i + 1] ?? "";
      inWord = true;
      i += 2;
      continue;
    }
    if (ch === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) return { tokens, unparsed: true };
      current += command.slice(i + 1, end);
      inWord = true;
      i = end + 1;
      continue;
    }
    if (ch === '"') {
      let j = i + 1;
      let text = "";
      while (j < command.length && command[j] !== '"') {
        if (command[j] === "\\" && j + 1 < command.length) {
          text += command[j + 1];
          j += 2;
          continue;
        }
        if (command[j] === "`" || (command[j] === "$" && command[j + 1] === "(")) unparsed = true;
        if (command[j] === "$") expands = true;
        text += command[j];
        j++;
      }
      if (j >= command.length) return { tokens, unparsed: true };
      current += text;
      inWord = true;
      i = j + 1;
      continue;
    }
    if (ch === "`" || (ch === "$" && command[i + 1] === "(") || ch === "(" || ch === ")" || ch === "{" || ch === "}") {
      unparsed = true;
      current += ch;
      inWord = true;
      i++;
      continue;
    }
    if (ch === "<" && command[i + 1] === "<") {
      unparsed = true; // heredoc or here-string
    }
    if (ch === " " || ch === "\t") {
      flush();
      i++;
      continue;
    }
    if (ch === "#" && !inWord) {
      const end = command.indexOf("\n", i);
      i = end < 0 ? command.length : end;
      continue;
    }
    const op = OPERATORS.find((candidate) => command.startsWith(candidate, i));
    if (op) {
      flush();
      tokens.push({ kind: "op", op });
      i += op.length;
      continue;
    }
    if (ch === ">" || ch === "<") {
      // A redirection, possibly with a file-descriptor prefix already collected as the current word.
      const fdPrefix = /^\d*$/.test(current) || current === "&" ? current : null;
      if (fdPrefix !== null) {
        current = "";
        inWord = false;
      } else {
        flush();
      }
      let op = ch;
      if (command[i + 1] === ">" || command[i + 1] === "&" || command[i + 1] === "|") op += command[i + 1];
      tokens.push({ kind: "redirect", op: (fdPrefix ?? "") + op });
      i += op.length;
      continue;
    }
    if (ch === "$" || ch === "*" || ch === "?" || ch === "~" || ch === "[") expands = true;
    current += ch;
    inWord = true;
    i++;
  }
  flush();
  return { tokens, unparsed };
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

function looksLikePath(word: string): boolean {
  if (word.startsWith("-")) return false;
  return word.startsWith("/") || word.startsWith("./") || word.startsWith("../") || word.startsWith("~") || word.includes("/");
}

export function analyzeShellCommand(command: string): ShellCommandAnalysis {
  const { tokens, unparsed } = tokenize(command);
  const commands: ShellCommandSegment[] = [];
  const possiblePaths = new Set<string>();
  const possibleUrls = new Set<string>();
  let hasWriteFileRedirection = false;
  let argv: Word[] = [];

  const endSegment = () => {
    const words = argv.filter((word) => !ASSIGNMENT.test(word.text) || argv.indexOf(word) > 0);
    const assignmentsOnly = argv.length > 0 && argv.every((word) => ASSIGNMENT.test(word.text));
    argv = [];
    if (words.length === 0 || assignmentsOnly) return;
    const plain = words.map((word) => word.text);
    const firstProgramIndex = words.findIndex((word) => !ASSIGNMENT.test(word.text));
    const program = plain.slice(firstProgramIndex);
    const identifier = commandIdentifier(program);
    const expandsProgram = words[firstProgramIndex]?.expands ?? true;
    commands.push({ identifier, argv: program, readOnly: !expandsProgram && isReadOnlyInvocation(program) });
    for (const word of program.slice(1)) {
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(word)) possibleUrls.add(word);
      else if (looksLikePath(word)) possiblePaths.add(word);
    }
  };

  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index] as Token;
    if (token.kind === "word") argv.push(token.word);
    else if (token.kind === "op") endSegment();
    else {
      const target = tokens[index + 1];
      const isDup = token.op.endsWith("&") && target?.kind === "word" && /^(\d+|-)$/.test(target.word.text);
      if (target?.kind === "word") {
        index++;
        if (!isDup) {
          possiblePaths.add(target.word.text);
          const writes = token.op.includes(">");
          if (writes && target.word.text !== "/dev/null") hasWriteFileRedirection = true;
        }
      }
    }
  }
  endSegment();

  const readOnly =
    !unparsed && !hasWriteFileRedirection && commands.length > 0 && commands.every((segment) => segment.readOnly);
  return {
    commands,
    possiblePaths: [...possiblePaths],
    possibleUrls: [...possibleUrls],
    hasWriteFileRedirection,
    unparsed,
    readOnly,
  };
}

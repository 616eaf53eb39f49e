/**
 * The small parser for simple command lines (src/permissions/shell/simple-parser.ts) stands in for tree-sitter
 * only where it builds the very tree tree-sitter builds. Proof: every string in the permission corpora
 * (test/permissions/**), and thousands of generated command lines mixing what it covers with what it must
 * leave alone, parsed by both: where the small parser answers, the trees are identical node for node (type,
 * field, range, text), and the analysis (with the small parser first, as the agent runs it) equals the
 * analysis with tree-sitter alone, for every string.
 */
import { readFileSync } from "node:fs";
import fg from "fast-glob";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import type { Parser } from "@vscode/tree-sitter-wasm";
import { analyzeShellCommand, analyzeWithParser } from "../../src/permissions/shell/analyze.js";
import { loadBashParser, treeSitterScript } from "../../src/permissions/shell/parser.js";
import { parseSimpleCommand } from "../../src/permissions/shell/simple-parser.js";
import type { ShellNode } from "../../src/permissions/shell/syntax-node.js";

const HOME = "/home/someone";
const OPTIONS = { env: { HOME, PATH: "/usr/bin:/bin", USER: "someone" }, homeDir: HOME, gitAliases: { st: "status", nuke: "!rm -rf ." } };

/** The whole tree as text: type (quoted when anonymous), range, field of each child; leaves with their text. */
function shape(node: ShellNode): string {
  const children = node.children.map((child, index) => `${node.fieldNameForChild(index) ?? ""}:${child ? shape(child) : "null"}`);
  const type = node.isNamed ? node.type : JSON.stringify(node.type);
  const missing = node.isMissing ? "!missing" : "";
  return `(${type}${missing} ${node.startIndex}-${node.endIndex}${children.length > 0 ? ` ${children.join(" ")}` : ` ${JSON.stringify(node.text)}`})`;
}

/** Every string literal in the permission tests: the commands of the corpora among them. */
function corpusStrings(): string[] {
  const found = new Set<string>();
  for (const file of fg.sync("test/permissions/**/*.ts")) {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) found.add(node.text);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return [...found].filter((text) => text.length > 0);
}

/** A small seeded generator (mulberry32), so a failure names a command that fails again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = [
  ...["ls", "cat", "echo", "grep", "git", "npm", "rm", "cp", "sed", "find", "tail", "xargs", "curl", "tee", "cd", "bash", "sudo", "env", "timeout"],
  ...["./run.sh", "/bin/rm", "~/bin/x", "2to3", ".", "test", "a@b", "a%b", "a?b", "x:y", "0x1F", "-x", "a+b", "*", "a,b", "'rm'", '"ls"x'],
];
const WORDS = [
  ...["-la", "-n", "5", "-5", "0x1F", "1.5", "5a", "README.md", "src/", "./x", "../y", "/etc/passwd", "~", "~/x", "a~", "*.ts", "?", "a=b", "--x=1"],
  ...["=a", "==", "=~", "--", "-", ".", "@x", "%x", "+x", "a:b", "x,y", "status", "st", "nuke", "-c", "-rf", "of=/tmp/x", "http://example.com/a"],
  ...["if", "then", "do", "done", "in", "esac", "function", "export", "{", "}", "[", "]", "!", "a#b", "#c", "$X", "${HOME}", "$(ls)", "`ls`", "\\x", "é"],
  ...["'a b'", "''", '"a b"', '""', '"a $X"', '"a`b`"', '"a\\"b"', '"*.ts"', '"!x"', `"a'b"`, "'rm -rf x'", '"ls; rm x"', "'$HOME'", '"${HOME}/x"'],
];
const OPERATORS = [" && ", "&&", " || ", " | ", "|", " ; ", ";", "; ", " & ", " |& ", "\n", " ;; ", "\t"];
const REDIRECTS = [" > f", " >f", " >> log", " 2> err", " 2>&1", " >&2", " &> all", " &>> all", " < in", " >| f", " <&0", " >&-", " 2>/dev/null"];
const ODD_REDIRECTS = [" <<EOF\nx\nEOF", " <<< s", "> f", " 1>f a", "2>f", " >&f", " > '~/x'", ' > "$X"', " <(ls)", " >(cat)"];
const PREFIXES = ["A=1 ", "B='x y' ", 'C="z" ', "D=x'y' ", "E= ", "F+=1 ", "PATH=/tmp ", "BASH_ENV=x ", "GIT_DIR=/x "];

function generate(next: () => number, count: number): string[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const word = (): string => (next() < 0.2 ? pick(WORDS) + pick(WORDS) : pick(WORDS));
  const command = (): string => {
    let text = next() < 0.15 ? pick(PREFIXES) : "";
    text += next() < 0.05 ? word() : pick(NAMES);
    for (let index = Math.floor(next() * 4); index > 0; index--) text += ` ${word()}`;
    for (let index = Math.floor(next() * 2.5); index > 0; index--) text += next() < 0.85 ? pick(REDIRECTS) : pick(ODD_REDIRECTS);
    return text;
  };
  const lines: string[] = [];
  for (let index = 0; index < count; index++) {
    let line = command();
    for (let more = Math.floor(next() * 4); more > 0; more--) line += (next() < 0.9 ? pick(OPERATORS.slice(0, 8)) : pick(OPERATORS)) + command();
    if (next() < 0.1) line += pick([";", " ;", " ", " &"]);
    if (next() < 0.05) line = ` ${line}`;
    lines.push(line);
  }
  return lines;
}

/** Strings of the characters that matter to a shell, in any order: what the tokenizer must get right or refuse. */
function scramble(next: () => number, count: number): string[] {
  const alphabet = "ab01 -_@%+=:,./~*?'\"$`\\|&;<>(){}[]!#\t\n";
  return Array.from({ length: count }, () => {
    let text = "";
    for (let length = 1 + Math.floor(next() * 16); length > 0; length--) {
      const roll = next();
      text += roll < 0.5 ? "ab01"[Math.floor(next() * 4)] : roll < 0.65 ? " " : alphabet[Math.floor(next() * alphabet.length)];
    }
    return text;
  });
}

let parser: Parser;
beforeAll(async () => {
  parser = await loadBashParser();
});

const treeSitterOnly = (text: string) => treeSitterScript(parser, text);

function treeSitterShape(text: string): string {
  const tree = parser.parse(text);
  if (!tree) throw new Error(`tree-sitter gave up on ${JSON.stringify(text)}`);
  try {
    return shape(tree.rootNode);
  } finally {
    tree.delete();
  }
}

/** Checks one command line; returns whether the small parser answered. */
async function checkEquivalent(text: string): Promise<boolean> {
  const simple = parseSimpleCommand(text);
  if (simple) expect(shape(simple), JSON.stringify(text)).toBe(treeSitterShape(text));
  expect(await analyzeShellCommand(text, OPTIONS), JSON.stringify(text)).toEqual(analyzeWithParser(text, OPTIONS, treeSitterOnly));
  return simple !== undefined;
}

/** Checks every string, and that the small parser answered for a share of them within [least, most]: both sides are exercised. */
async function checkAll(strings: readonly string[], least: number, most: number): Promise<void> {
  let simple = 0;
  for (const text of strings) if (await checkEquivalent(text)) simple++;
  expect(simple).toBeGreaterThanOrEqual(strings.length * least);
  expect(simple).toBeLessThanOrEqual(strings.length * most);
}

describe("the small shell parser against tree-sitter", () => {
  it("builds tree-sitter's tree, and the same analysis, for every string in the permission corpora", async () => {
    const strings = corpusStrings();
    expect(strings.length).toBeGreaterThan(500);
    // The corpora are full of commands it must leave to tree-sitter, and of plain ones.
    await checkAll(strings, 0.2, 0.9);
  });

  it("builds tree-sitter's tree, and the same analysis, for generated command lines", async () => {
    await checkAll(generate(random(24), 3000), 0.1, 0.8);
  });

  it("builds tree-sitter's tree, and the same analysis, for scrambled shell characters", async () => {
    await checkAll(scramble(random(7), 3000), 0.05, 0.8);
  });

  it("builds tree-sitter's tree for the corpus commands joined, redirected and respaced", async () => {
    const next = random(3);
    const simpleOnes = corpusStrings().filter((text) => parseSimpleCommand(text) !== undefined);
    const pick = () => simpleOnes[Math.floor(next() * simpleOnes.length)] as string;
    const variants = Array.from({ length: 1000 }, () => {
      const joined = `${pick()}${OPERATORS[Math.floor(next() * 8)] as string}${pick()}`;
      const redirected = next() < 0.5 ? joined + (REDIRECTS[Math.floor(next() * REDIRECTS.length)] as string) : joined;
      return next() < 0.3 ? redirected.replace(/ (&&|\|\||\||;) /g, "$1") : redirected;
    });
    await checkAll(variants, 0.3, 1);
  });

  it.each([
    ["a variable", "cat $X"],
    ["a braced variable", "cat ${HOME}/x"],
    ["a command substitution", "echo $(rm x)"],
    ["backquotes", "echo `rm x`"],
    ["a variable in double quotes", 'echo "$X"'],
    ["a substitution in double quotes", 'echo "$(rm x)"'],
    ["an escape", "r\\m x"],
    ["an escape in double quotes", 'echo "a\\"b"'],
    ["an ANSI-C string", "echo $'\\x72m'"],
    ["a newline", "ls\nrm x"],
    ["a tab", "ls\t-la"],
    ["a comment", "ls # rm x"],
    ["non-ASCII text", "echo é"],
    ["a background job", "ls & rm x"],
    ["a subshell", "(rm x)"],
    ["a group", "{ rm x; }"],
    ["a test", "[ -f x ]"],
    ["globbing brackets", "ls [ab]"],
    ["brace expansion", "cp a.{js,ts} x"],
    ["history expansion", "echo !x"],
    ["a heredoc", "cat <<EOF\nx\nEOF"],
    ["a here-string", "bash <<< 'rm x'"],
    ["process substitution", "diff <(ls) x"],
    ["a pipe of stderr", "ls |& cat"],
    ["case syntax", "x ;; y"],
    ["an assignment alone", "A=1"],
    ["an appending assignment", "A+=1 ls"],
    ["an empty assignment", "A= ls"],
    ["export", "export A=1"],
    ["unset", "unset PATH"],
    ["a keyword", "if true; then rm x; fi"],
    ["a loop", "for f in *; do rm $f; done"],
    ["a comparison", "test a == b"],
    ["a regex comparison", "x =~ y"],
    ["a closed descriptor", "ls >&-"],
    ["a duplication to a file", "ls >&out"],
    ["a word after a redirection", "cat > out secret"],
    ["a redirection glued to a word", "echo hi>out"],
    ["a redirection before the command", "> out ls"],
    ["a quoted command name", "'rm' x"],
    ["an unterminated quote", "echo 'x"],
    ["an empty line", "   "],
  ])("leaves %s to tree-sitter: %j", (_why, text) => {
    expect(parseSimpleCommand(text)).toBeUndefined();
  });
});

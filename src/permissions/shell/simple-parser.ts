/**
 * A small parser for simple command lines, so that the first permission decision in a process does not wait
 * for tree-sitter's WebAssembly grammar (V8 compiles its 160 KB lexer function with TurboFan after a dozen
 * characters: about a second of CPU, and the process cannot exit before it is done; docs/benchmarks.md).
 *
 * It builds exactly the tree tree-sitter's bash grammar builds, node for node (types, fields, ranges), so the
 * analysis cannot tell them apart; test/permissions/simple-parser-equivalence.test.ts proves it over the
 * permission corpora and generated variants. "Simple" is:
 *   - printable ASCII, words separated by spaces (no tabs or newlines);
 *   - words of plain characters (letters, digits, `_ @ % + = : , . / ~ * ? -`), `'…'`, and `"…"` without
 *     `$`, backquotes or backslashes inside, glued into one word as bash does (`--name="a b"`);
 *   - `&&`, `||`, `|` and `;` between commands (but not a pipeline of three or more commands followed by `&&`
 *     or `||`, where the grammar's ambiguity resolves unlike the rest);
 *   - redirections after a command's words: `>`, `>>`, `>|`, `<`, `&>`, `&>>` to one word, `>&N`, `<&N`, with an
 *     optional descriptor (`2>`, `2>&1`);
 *   - `NAME=value` before a command; a command name of plain characters (no `@ % ? : =`, not starting with a
 *     digit or `-`) that is not a keyword of the grammar.
 * Anything else (expansions, substitutions, escapes, globbing brackets, braces, subshells, comments, `&`,
 * heredocs, keywords, `declare`/`export`/`unset`, a word after a redirection) returns undefined: tree-sitter
 * decides those.
 */
import type { ShellNode } from "./syntax-node.js";
import { tokenize, type RedirectToken, type Token, type WordPart, type WordToken } from "./simple-tokens.js";

/** Where the grammar reads a keyword or a command of its own instead of a command name. */
const GRAMMAR_WORDS = new Set(
  "if then else elif fi case esac for select while until do done in function declare typeset export readonly local unset unsetenv".split(" "),
);
/**
 * A command name it is sure of. Where a command starts, the grammar's scanner reads a name followed by `@`,
 * `%`, `?` or `:` as a variable name (`a%b` is an error there), and one starting with a digit as a number.
 */
const COMMAND_NAME = /^[A-Za-z_./~,*+][A-Za-z0-9_./~,*+-]*$/;
const NUMBER = /^-?(0x)?[0-9]+$/;
/** `NAME=`; `_` alone is bash's special variable, a command word `_=x` to the grammar. */
const ASSIGNMENT = /^(?!_=)[A-Za-z_][A-Za-z0-9_]*=/;
const DIGITS = /^[0-9]+$/;

class SimpleNode implements ShellNode {
  readonly isMissing = false;

  constructor(
    private readonly source: string,
    readonly type: string,
    readonly isNamed: boolean,
    readonly startIndex: number,
    readonly endIndex: number,
    readonly children: readonly SimpleNode[] = [],
    /** The field of each child (tree-sitter's fieldNameForChild; the analysis reads repeated fields). */
    private readonly fields: readonly (string | null)[] = [],
  ) {}

  get text(): string {
    return this.source.slice(this.startIndex, this.endIndex);
  }

  get namedChildren(): SimpleNode[] {
    return this.children.filter((child) => child.isNamed);
  }

  childForFieldName(name: string): SimpleNode | null {
    const index = this.fields.indexOf(name);
    return index < 0 ? null : (this.children[index] ?? null);
  }

  fieldNameForChild(index: number): string | null {
    return this.fields[index] ?? null;
  }
}

/** Thrown inside the builder when the tokens are not a simple command line; parseSimpleCommand returns undefined. */
class NotSimple extends Error {}

class TreeBuilder {
  private position = 0;

  constructor(
    private readonly text: string,
    private readonly tokens: readonly Token[],
  ) {}

  private node(type: string, children: SimpleNode[], fields: (string | null)[] = []): SimpleNode {
    const first = children[0];
    const last = children.at(-1);
    if (!first || !last) throw new NotSimple();
    return new SimpleNode(this.text, type, true, first.startIndex, last.endIndex, children, fields);
  }

  private leaf(type: string, start: number, end: number, named = false): SimpleNode {
    return new SimpleNode(this.text, type, named, start, end);
  }

  private peek(): Token | undefined {
    return this.tokens[this.position];
  }

  private take<K extends Token["kind"]>(kind: K): Extract<Token, { kind: K }> {
    const token = this.tokens[this.position];
    if (token?.kind !== kind) throw new NotSimple();
    this.position++;
    return token as Extract<Token, { kind: K }>;
  }

  program(): SimpleNode {
    const children: SimpleNode[] = [];
    for (;;) {
      children.push(this.statement());
      const separator = this.peek();
      if (!separator) break;
      const semicolon = this.take("operator");
      children.push(this.leaf(";", semicolon.start, semicolon.end));
      if (!this.peek()) break;
    }
    const first = children[0] as SimpleNode;
    return new SimpleNode(this.text, "program", true, first.startIndex, this.text.length, children);
  }

  /**
   * Commands joined by `|` (one flat pipeline) and `&&`/`||` (lists, nested to the left), as the grammar
   * reduces them; redirections after a command apply to everything before them in the statement.
   */
  private statement(): SimpleNode {
    let list: SimpleNode | undefined;
    let listOperator: Token | undefined;
    for (;;) {
      let pipeline = [this.command()];
      for (let token = this.peek(); token?.kind === "redirect" || (token?.kind === "operator" && token.text === "|"); token = this.peek()) {
        if (token.kind === "redirect") {
          pipeline = [this.redirected(this.join(list, listOperator, this.pipeline(pipeline)))];
          list = undefined;
          listOperator = undefined;
        } else {
          this.position++;
          pipeline.push(this.leaf("|", token.start, token.end), this.command());
        }
      }
      list = this.join(list, listOperator, this.pipeline(pipeline));
      const next = this.peek();
      if (next?.kind === "operator" && (next.text === "&&" || next.text === "||")) {
        // `a | b | c && d`: the grammar's ambiguity resolves to a | (b | c && d) there; not followed here.
        if (pipeline.length >= 5) throw new NotSimple();
        listOperator = next;
        this.position++;
      } else if (next === undefined || (next.kind === "operator" && next.text === ";")) return list;
      else throw new NotSimple(); // a word after a redirection
    }
  }

  private pipeline(parts: SimpleNode[]): SimpleNode {
    return parts.length === 1 ? (parts[0] as SimpleNode) : this.node("pipeline", parts);
  }

  private join(left: SimpleNode | undefined, operator: Token | undefined, right: SimpleNode): SimpleNode {
    if (!left || !operator || operator.kind !== "operator") return right;
    return this.node("list", [left, this.leaf(operator.text, operator.start, operator.end), right]);
  }

  private command(): SimpleNode {
    const children: SimpleNode[] = [];
    const fields: (string | null)[] = [];
    for (let token = this.peek(); token?.kind === "word" && this.isAssignment(token); token = this.peek()) {
      children.push(this.assignment(this.take("word")));
      fields.push(null);
    }
    const name = this.take("word");
    const nameText = this.text.slice(name.start, name.end);
    if (name.parts.length !== 1 || !COMMAND_NAME.test(nameText) || GRAMMAR_WORDS.has(nameText)) throw new NotSimple();
    children.push(this.node("command_name", [this.leaf("word", name.start, name.end, true)]));
    fields.push("name");
    for (let token = this.peek(); token?.kind === "word"; token = this.peek()) {
      const argument = this.take("word");
      // `==` and `=~` open a comparison in the grammar's command rule.
      if (/^=[=~]/.test(this.text.slice(argument.start, argument.end))) throw new NotSimple();
      children.push(this.word(argument.parts));
      fields.push("argument");
    }
    // `cat - 2>&1`: the grammar drops a lone `-` before a redirection with a descriptor.
    if (children.at(-1)?.text === "-" && this.peek()?.kind === "redirect") throw new NotSimple();
    return this.node("command", children, fields);
  }

  private isAssignment(token: WordToken): boolean {
    const first = token.parts[0];
    return first?.kind === "bare" && ASSIGNMENT.test(this.text.slice(first.start, first.end));
  }

  private assignment(token: WordToken): SimpleNode {
    const first = token.parts[0] as WordPart;
    const equals = this.text.indexOf("=", first.start);
    const valueParts = [...(equals + 1 < first.end ? [{ kind: "bare" as const, start: equals + 1, end: first.end }] : []), ...token.parts.slice(1)];
    if (valueParts.length === 0) throw new NotSimple(); // `A= cmd`: an empty value the grammar marks its own way
    return this.node(
      "variable_assignment",
      [this.leaf("variable_name", first.start, equals, true), this.leaf("=", equals, equals + 1), this.word(valueParts)],
      ["name", null, "value"],
    );
  }

  private word(parts: readonly WordPart[]): SimpleNode {
    const nodes = parts.map((part) => this.part(part));
    return nodes.length === 1 ? (nodes[0] as SimpleNode) : this.node("concatenation", nodes);
  }

  private part(part: WordPart): SimpleNode {
    if (part.kind === "single") return this.leaf("raw_string", part.start, part.end, true);
    if (part.kind === "bare") return this.leaf(NUMBER.test(this.text.slice(part.start, part.end)) ? "number" : "word", part.start, part.end, true);
    const open = this.leaf('"', part.start, part.start + 1);
    const close = this.leaf('"', part.end - 1, part.end);
    const content = part.end - part.start > 2 ? [this.leaf("string_content", part.start + 1, part.end - 1, true)] : [];
    return this.node("string", [open, ...content, close]);
  }

  private redirected(body: SimpleNode): SimpleNode {
    const children = [body];
    const fields: (string | null)[] = ["body"];
    while (this.peek()?.kind === "redirect") {
      children.push(this.redirect(this.take("redirect")));
      fields.push("redirect");
    }
    return this.node("redirected_statement", children, fields);
  }

  private redirect(token: RedirectToken): SimpleNode {
    const children: SimpleNode[] = [];
    const fields: (string | null)[] = [];
    if (token.descriptor) {
      children.push(this.leaf("file_descriptor", token.descriptor.start, token.descriptor.end, true));
      fields.push("descriptor");
    }
    children.push(this.leaf(token.operator, token.start, token.end));
    fields.push(null);
    const target = this.take("word");
    // `>&1` duplicates a descriptor; anything else after `>&` (`-`, a file name) is left to tree-sitter.
    if (token.operator.endsWith("&") && !(target.parts.length === 1 && DIGITS.test(this.text.slice(target.start, target.end)))) throw new NotSimple();
    children.push(this.word(target.parts));
    fields.push("destination");
    return this.node("file_redirect", children, fields);
  }
}

/**
 * The tree tree-sitter's bash grammar would build for `text`, when `text` is a simple command line (see
 * above); undefined when it is not, or when this parser is not sure.
 */
export function parseSimpleCommand(text: string): ShellNode | undefined {
  const tokens = tokenize(text);
  if (!tokens || tokens.length === 0) return undefined;
  try {
    return new TreeBuilder(text, tokens).program();
  } catch (error) {
    if (error instanceof NotSimple) return undefined;
    throw error;
  }
}

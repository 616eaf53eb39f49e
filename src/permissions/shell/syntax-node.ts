/**
 * What the shell analysis reads of a syntax tree: tree-sitter's nodes have all of it, and so do the trees the
 * small parser for simple command lines builds (simple-parser.ts), so either stands in for the other.
 */

export interface ShellNode {
  readonly type: string;
  readonly text: string;
  /** False for punctuation and operators (`&&`, `>`, `"`), whose type is their text. */
  readonly isNamed: boolean;
  readonly isMissing: boolean;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly children: readonly (ShellNode | null)[];
  readonly namedChildren: readonly (ShellNode | null)[];
  childForFieldName(name: string): ShellNode | null;
  /** The field of the child at `index` (a redirection's destinations, a heredoc's arguments share a field). */
  fieldNameForChild(index: number): string | null;
}

/** A parsed script; `dispose` frees what the parser holds (tree-sitter's trees live in WebAssembly memory). */
export interface ParsedScript {
  root: ShellNode;
  dispose(): void;
}

/** Parses one script; undefined when the parser gave up. */
export type ScriptParser = (text: string) => ParsedScript | undefined;

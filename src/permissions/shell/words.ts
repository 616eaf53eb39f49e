/**
 * The value of a shell word as far as it can be known before running it: the text with quotes and escapes
 * removed, and whether anything in it is only known at run time (variables, substitutions).
 */
import type { ShellNode } from "./syntax-node.js";

export interface WordValue {
  text: string;
  /** Everything in the word is literal. */
  literal: boolean;
  /** An unquoted glob character (`*`, `?`, `[`) is in it. */
  glob: boolean;
}

const DOUBLE_QUOTE_ESCAPES = /\\([$`"\\\n])/g;

function unescapeWord(text: string): string {
  return text.replace(/\\(.)/gs, "$1");
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** The text bash makes of `$'…'`: `$'\x72m'` is `rm`, so rules see the program that runs. */
export function decodeAnsiC(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs, (whole, escape: string) => {
    const kind = escape[0] as string;
    if (kind === "x" || kind === "u" || kind === "U") {
      const code = Number.parseInt(escape.slice(1), 16);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    if (/[0-7]/.test(kind)) return String.fromCharCode(Number.parseInt(escape, 8) & 0xff);
    if (kind === "c") return String.fromCharCode(escape.charCodeAt(1) & 0x1f);
    return SIMPLE_ESCAPES[kind] ?? whole;
  });
}

/** `$HOME`, `${HOME}`, `$PWD`, `$TMPDIR`: variables whose value is known well enough to check a path. */
function knownVariable(node: ShellNode, env: NodeJS.ProcessEnv): string | undefined {
  const name = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(node.text)?.[1];
  return name && ["HOME", "PWD", "TMPDIR", "USER"].includes(name) ? env[name] : undefined;
}

export function evaluateWord(node: ShellNode, env: NodeJS.ProcessEnv = process.env): WordValue {
  switch (node.type) {
    case "word":
    case "number":
    case "file_descriptor":
    case "heredoc_start":
      return { text: unescapeWord(node.text), literal: true, glob: /(^|[^\\])[*?[]/.test(node.text) };
    case "raw_string":
      return { text: node.text.slice(1, -1), literal: true, glob: false };
    case "ansi_c_string":
      return { text: decodeAnsiC(node.text.slice(2, -1)), literal: true, glob: false };
    case "string":
    case "translated_string": {
      let text = "";
      let literal = true;
      for (const child of node.namedChildren) {
        if (!child) continue;
        if (child.type === "string_content") text += child.text.replace(DOUBLE_QUOTE_ESCAPES, "$1");
        else {
          const known = child.type === "simple_expansion" || child.type === "expansion" ? knownVariable(child, env) : undefined;
          if (known !== undefined) text += known;
          else {
            literal = false;
            text += child.text;
          }
        }
      }
      return { text, literal, glob: false };
    }
    case "concatenation": {
      const parts = node.namedChildren.filter((child): child is ShellNode => child !== null).map((child) => evaluateWord(child, env));
      return { text: parts.map((part) => part.text).join(""), literal: parts.every((part) => part.literal), glob: parts.some((part) => part.glob) };
    }
    case "process_substitution":
      return { text: "/dev/fd/63", literal: true, glob: false }; // what the program receives: a pipe
    case "simple_expansion":
    case "expansion": {
      const known = knownVariable(node, env);
      return known !== undefined ? { text: known, literal: true, glob: false } : { text: node.text, literal: false, glob: false };
    }
    default:
      return { text: node.text, literal: false, glob: false };
  }
}

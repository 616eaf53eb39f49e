/**
 * The parsers of the shell analysis: the small one for simple command lines (simple-parser.ts), and the bash
 * grammar of tree-sitter for the rest, from @vscode/tree-sitter-wasm (prebuilt WebAssembly: no native build,
 * no download at install, the same parser VS Code uses to judge terminal commands), loaded once, on the
 * first command that needs a permission decision and is beyond the small parser.
 *
 * The built program carries its own copy of the runtime and the bash grammar (scripts/build.mjs copies them
 * to dist/tree-sitter/ and defines AGENT_TREE_SITTER_DIR), so an installed package has no dependency on the
 * 22 MB package; run from source (tests, tsx), the package itself is used.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { Parser } from "@vscode/tree-sitter-wasm";
import { atBaselineTier } from "./baseline-tier.js";
import { parseSimpleCommand } from "./simple-parser.js";
import type { ParsedScript, ScriptParser } from "./syntax-node.js";

declare const AGENT_TREE_SITTER_DIR: string | undefined;

type TreeSitter = typeof import("@vscode/tree-sitter-wasm");

/** The runtime module and the bash grammar's file: the vendored copy in a build, else the package. */
function locate(): { runtime: string; grammar: string } {
  if (typeof AGENT_TREE_SITTER_DIR === "string") {
    const dir = new URL(AGENT_TREE_SITTER_DIR, import.meta.url);
    return { runtime: fileURLToPath(new URL("tree-sitter.cjs", dir)), grammar: fileURLToPath(new URL("tree-sitter-bash.wasm", dir)) };
  }
  const load = createRequire(import.meta.url);
  return { runtime: load.resolve("@vscode/tree-sitter-wasm"), grammar: load.resolve("@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm") };
}

let loading: Promise<Parser> | undefined;

export function loadBashParser(): Promise<Parser> {
  loading ??= (async () => {
    const { runtime, grammar } = locate();
    const treeSitter = createRequire(import.meta.url)(runtime) as TreeSitter;
    // Both modules are ours; at the baseline tier V8 spends no second on recompiling the lexer (baseline-tier.ts).
    const bash = await atBaselineTier(async () => {
      await treeSitter.Parser.init();
      return treeSitter.Language.load(grammar);
    });
    const parser = new treeSitter.Parser();
    parser.setLanguage(bash);
    return parser;
  })();
  return loading;
}

/** `text` parsed by tree-sitter; undefined when it gave up. */
export function treeSitterScript(parser: Parser, text: string): ParsedScript | undefined {
  const tree = parser.parse(text);
  return tree ? { root: tree.rootNode, dispose: () => tree.delete() } : undefined;
}

function simpleScript(text: string): ParsedScript | undefined {
  const root = parseSimpleCommand(text);
  return root ? { root, dispose: () => undefined } : undefined;
}

/** Thrown by simpleParserOnly: a script in the command is beyond the small parser. */
export class BeyondSimpleParser extends Error {}

/** The small parser alone, for a first attempt that loads nothing. */
export const simpleParserOnly: ScriptParser = (text) => {
  const parsed = simpleScript(text);
  if (!parsed) throw new BeyondSimpleParser();
  return parsed;
};

/** The small parser where it is sure, tree-sitter (loaded now) for the rest. */
export async function withTreeSitter(): Promise<ScriptParser> {
  const parser = await loadBashParser();
  return (text) => simpleScript(text) ?? treeSitterScript(parser, text);
}

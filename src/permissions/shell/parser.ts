/**
 * The bash grammar of tree-sitter, from @vscode/tree-sitter-wasm (prebuilt WebAssembly: no native build,
 * no download at install, the same parser VS Code uses to judge terminal commands). Loaded once, on the
 * first shell command that needs a permission decision.
 */
import { createRequire } from "node:module";
import type { Node, Parser } from "@vscode/tree-sitter-wasm";

export type SyntaxNode = Node;

let loading: Promise<Parser> | undefined;

export function loadBashParser(): Promise<Parser> {
  loading ??= (async () => {
    const load = createRequire(import.meta.url);
    const treeSitter = load("@vscode/tree-sitter-wasm") as typeof import("@vscode/tree-sitter-wasm");
    await treeSitter.Parser.init();
    const bash = await treeSitter.Language.load(load.resolve("@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm"));
    const parser = new treeSitter.Parser();
    parser.setLanguage(bash);
    return parser;
  })();
  return loading;
}

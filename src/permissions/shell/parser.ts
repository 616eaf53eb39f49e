/**
 * The bash grammar of tree-sitter, from @vscode/tree-sitter-wasm (prebuilt WebAssembly: no native build,
 * no download at install, the same parser VS Code uses to judge terminal commands). Loaded once, on the
 * first shell command that needs a permission decision.
 *
 * The built program carries its own copy of the runtime and the bash grammar (scripts/build.mjs copies them
 * to dist/tree-sitter/ and defines AGENT_TREE_SITTER_DIR), so an installed package has no dependency on the
 * 22 MB package; run from source (tests, tsx), the package itself is used.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { Node, Parser } from "@vscode/tree-sitter-wasm";

export type SyntaxNode = Node;

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
    await treeSitter.Parser.init();
    const bash = await treeSitter.Language.load(grammar);
    const parser = new treeSitter.Parser();
    parser.setLanguage(bash);
    return parser;
  })();
  return loading;
}

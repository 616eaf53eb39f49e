/**
 * What the TUI loads before its first frame (the static imports of src/cli/interactive.ts, which draws it before
 * Ink loads) stays small: no `openai` client, no zod, no Ink or React. Each came back once through an
 * innocent-looking import (an error class, a barrel's re-export); esbuild's own import graph says which.
 */
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

async function staticGraph(entry: string): Promise<Map<string, string | undefined>> {
  const result = await build({
    entryPoints: ["src/cli/main.ts"],
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    outdir: "unused",
    write: false,
    metafile: true,
    logLevel: "silent",
    external: ["react-devtools-core", "@vscode/tree-sitter-wasm", "sql.js"],
    define: { AGENT_VERSION: '"0"', AGENT_TREE_SITTER_DIR: '""', AGENT_SQL_JS_DIR: '""', AGENT_YAML_DIR: '""' },
  });
  const inputs = result.metafile.inputs;
  const reachedFrom = new Map<string, string | undefined>([[entry, undefined]]);
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const imported of inputs[file]?.imports ?? []) {
      if (imported.kind !== "import-statement" || !inputs[imported.path] || reachedFrom.has(imported.path)) continue;
      reachedFrom.set(imported.path, file);
      queue.push(imported.path);
    }
  }
  return reachedFrom;
}

describe("what the TUI loads before its first frame", () => {
  it("leaves out the model client, zod, Ink and React", { timeout: 60_000 }, async () => {
    const graph = await staticGraph("src/cli/interactive.ts");
    const chain = (file: string) => {
      const files: string[] = [];
      for (let at: string | undefined = file; at !== undefined; at = graph.get(at)) files.unshift(at);
      return files.join(" → ");
    };
    const heavy = [...graph.keys()].filter((file) => /node_modules\/(openai|zod|ink|react|react-reconciler|yoga-layout)\//.test(file));
    expect(heavy.map(chain)).toEqual([]);
  });
});

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

/** The chains of static imports from `entry` to the files `heavy` matches (none: the test passes). */
async function heavyChains(entry: string, heavy: RegExp): Promise<string[]> {
  const graph = await staticGraph(entry);
  const chain = (file: string) => {
    const files: string[] = [];
    for (let at: string | undefined = file; at !== undefined; at = graph.get(at)) files.unshift(at);
    return files.join(" → ");
  };
  return [...graph.keys()].filter((file) => heavy.test(file)).map(chain);
}

describe("what the TUI loads before its first frame", () => {
  it("leaves out the model client, zod, Ink and React", { timeout: 60_000 }, async () => {
    expect(await heavyChains("src/cli/interactive.ts", /node_modules\/(openai|zod|ink|react|react-reconciler|yoga-layout)\//)).toEqual([]);
  });

  // `agent --resume <id>` reads its arguments with commander first: a bundle of its own in the build
  // (dist/vendor-commander.cjs), so nothing before the frame deserialises zod and openai's vendor bundle.
  it("the command-line parser leaves out the model client and zod", { timeout: 60_000 }, async () => {
    expect(await heavyChains("src/cli/program.ts", /node_modules\/(openai|zod)\//)).toEqual([]);
  });

  // string-width builds an emoji pattern and a segmenter when it loads (~25 ms of CPU): a resumed session's
  // early preview loads it only when its text is not printable ASCII (src/ui/markdown/wrap.ts).
  it.each(["src/ui/print-past.ts", "src/ui/markdown/render-markdown.ts", "src/ui/first-frame.ts", "src/session/event-log-tail.ts"])(
    "the resume preview's %s leaves out string-width",
    { timeout: 60_000 },
    async (entry) => {
      expect(await heavyChains(entry, /node_modules\/string-width\//)).toEqual([]);
    },
  );
});

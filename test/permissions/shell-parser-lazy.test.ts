/**
 * tree-sitter's WebAssembly grammar costs a fresh process about 0.6 s of CPU the first time it parses more than
 * a bare word (docs/benchmarks.md), so simple command lines are decided without loading it; it loads for the
 * first command beyond the small parser. Its runtime is a CommonJS module, so require's cache shows whether
 * it was loaded (this file runs in a process of its own).
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { analyzeShellCommand } from "../../src/permissions/shell/analyze.js";

const treeSitterLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => /tree-sitter-wasm[\\/]wasm[\\/]tree-sitter\.js$/.test(file));

describe("loading tree-sitter", () => {
  it("waits for a command beyond the small parser", async () => {
    const simple = ["ls", "cat README.md", "ls && echo hi", "npm test 2>&1 | tail -20", "CI=1 npm run build > out.log", "bash -c 'ls -la; git status'"];
    for (const command of simple) expect((await analyzeShellCommand(command)).unparsed, command).toEqual([]);
    expect(treeSitterLoaded()).toBe(false);

    const analysis = await analyzeShellCommand('echo "$(rm x)"');
    expect(treeSitterLoaded()).toBe(true);
    expect(analysis.segments.map((segment) => segment.identifier)).toEqual(["rm", "echo"]);
  });
});

/**
 * tree-sitter's WebAssembly is compiled at V8's baseline tier, with the flags put back right after
 * (src/permissions/shell/baseline-tier.ts). V8 reports each function it compiles with
 * `--trace-wasm-compilation-times`; a fresh process parses through our loader, and a control process compiles a
 * copy of the grammar after our window and parses the same text with it: the copy's lexer must reach TurboFan
 * (the workload makes it hot, and the flags were restored), ours must not. Tier-up is driven by the code run,
 * not by the clock, and Node waits for background compiles before it exits, so the trace is complete.
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { analyzeShellCommand } from "../../src/permissions/shell/analyze.js";
import { startupSetsTiers } from "../../src/permissions/shell/baseline-tier.js";
import { loadBashParser } from "../../src/permissions/shell/parser.js";
import { cpuTimer } from "../support/cpu-time.js";

const PARSER = fileURLToPath(new URL("../../src/permissions/shell/parser.ts", import.meta.url));
const GRAMMAR = createRequire(import.meta.url).resolve("@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm");
/** The grammar's generated lexer, `ts_lex`: the function TurboFan spends the second on. */
const LEXER_BODY = "bodysize 161555";

/** About 10 KB of the shell a model writes: loops, tests, substitutions, expansions, heredocs, pipes. */
function longScript(): string {
  let text = "";
  for (let index = 0; text.length < 10_240; index++)
    text += `for f in $(find ./src${index} -name "*.ts" -type f); do
  if [ -n "$f" ] && grep -q "TODO${index}" "$f" 2>/dev/null; then
    echo "file: \${f##*/} has $(grep -c TODO "$f") todos" | tee -a out${index}.log > /dev/null
  fi
done
case "$X${index}" in a|b) echo "ab $((index + ${index}))" ;; *) printf '%s\\n' "\${ARR[@]:-none}" ;; esac
cat <<EOF${index} | sed -e 's/x/y/g' >> heredoc${index}.txt
line $HOME/${index}
EOF${index}
`;
  return text;
}

/** A fresh node that loads our parser, parses `script` three times, then (`control`) a copy compiled after. */
const CHILD = `
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
const [parserModule, grammar, control] = process.argv.slice(1);
const { loadBashParser, treeSitterScript } = await import(parserModule);
const script = ${JSON.stringify(longScript())};
const parser = await loadBashParser();
if (control !== "control") {
  for (let round = 0; round < 3; round++) {
    const parsed = treeSitterScript(parser, script);
    if (!parsed || parsed.root.hasError) throw new Error("the script did not parse");
    parsed.dispose();
  }
} else {
  // Changed bytes (a custom section), so V8 compiles the copy anew instead of reusing our module.
  const runtime = createRequire(import.meta.url)("@vscode/tree-sitter-wasm");
  const copy = await runtime.Language.load(new Uint8Array([...readFileSync(grammar), 0, 4, 3, 0x78, 0x79, 0x7a]));
  const other = new runtime.Parser();
  other.setLanguage(copy);
  for (let round = 0; round < 3; round++) other.parse(script).delete();
}
`;

function turboFanLexerCompiles(mode: "ours" | "control"): number {
  const child = spawnSync(process.execPath, ["--import", "tsx", "--trace-wasm-compilation-times", "--input-type=module", "-e", CHILD, PARSER, GRAMMAR, mode], {
    encoding: "utf8",
    env: { ...process.env, NODE_OPTIONS: "" },
  });
  expect(child.status, child.stderr).toBe(0);
  const compiles = child.stdout.split("\n").filter((line) => line.startsWith("Compiled function"));
  expect(compiles.some((line) => line.includes("using Liftoff") && line.includes(LEXER_BODY))).toBe(true);
  return compiles.filter((line) => line.includes("using TurboFan") && line.includes(LEXER_BODY)).length;
}

describe("tree-sitter at the baseline tier", () => {
  it("keeps the grammar's lexer off TurboFan, and later modules tier up as before", () => {
    expect(turboFanLexerCompiles("ours")).toBe(0);
    expect(turboFanLexerCompiles("control")).toBeGreaterThan(0);
  }, 60_000);

  it("parses a 10 KB script correctly and fast at that tier", async () => {
    const parser = await loadBashParser();
    const script = longScript();
    const elapsed = cpuTimer();
    const tree = parser.parse(script);
    const cpu = elapsed();
    expect(tree?.rootNode.hasError).toBe(false);
    tree?.delete();
    expect(cpu).toBeLessThan(200);
    const analysis = await analyzeShellCommand(script);
    expect(analysis.unparsed).toEqual([]);
    expect(new Set(analysis.segments.map((segment) => segment.identifier))).toEqual(new Set(["find", "grep", "echo", "tee", "printf", "sed", "cat"]));
  });

  it("leaves V8's flags alone when the process was started with one that sets the tiers", () => {
    for (const option of [
      "--liftoff-only",
      "--no-liftoff",
      "--no-wasm-tier-up",
      "--wasm_dynamic_tiering",
      "--no-wasm-lazy-compilation",
      "--single-threaded",
      "--jitless",
    ])
      expect(startupSetsTiers([option], ""), option).toBe(true);
    expect(startupSetsTiers([], "--max-old-space-size=512 --no-wasm-dynamic-tiering")).toBe(true);
    for (const option of ["--enable-source-maps", "--experimental-wasm-modules", "--trace-wasm-compilation-times", "--import=tsx"])
      expect(startupSetsTiers([option], "--max-old-space-size=512"), option).toBe(false);
  });
});

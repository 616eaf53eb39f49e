// Bundles src/ into dist/ with esbuild. Entry points that are loaded lazily (the headless runner, the
// TUI) become separate chunks, so `agent --version` loads almost nothing.
import { build } from "esbuild";
import { readFileSync, rmSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { cli: "src/cli/main.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: "linked",
  legalComments: "none",
  logLevel: "warning",
  chunkNames: "chunks/[name]-[hash]",
  // Production builds of React and friends: smaller, and far faster than their development builds.
  define: { AGENT_VERSION: JSON.stringify(pkg.version), "process.env.NODE_ENV": '"production"' },
  // Less to parse at start-up; identifiers are kept so stack traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  // Some dependencies are CommonJS and call require(); give the ESM bundle a require of its own.
  banner: { js: "import { createRequire as __agentCreateRequire } from 'node:module'; const require = __agentCreateRequire(import.meta.url);" },
  external: ["react-devtools-core", "@vscode/tree-sitter-wasm"],
});

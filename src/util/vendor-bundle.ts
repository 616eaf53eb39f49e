/**
 * The libraries the build puts in dist/vendor.cjs (zod, openai), dist/vendor-commander.cjs (commander, which
 * the TUI's first frame needs without the others), dist/vendor-anthropic.cjs (the Anthropic SDK, for its wire
 * only), dist/vendor-jsonrpc.cjs (vscode-jsonrpc, the SDK server's transport, shared by its front and its engine)
 * and dist/vendor-tools.cjs (what program.cjs reaches only through what a plain run never sets up; see
 * scripts/build.mjs), each loaded once through V8's code cache; and a `-p` run's whole program,
 * dist/chunks/program.cjs. Only the built bundle imports this; from source the packages are imported as they are.
 */
import { fileURLToPath } from "node:url";
import { codeCacheDir } from "./cache-dir.js";
import { loadCachedScript } from "./code-cache.js";

declare const AGENT_VENDOR_ID: string;
declare const AGENT_COMMANDER_ID: string;
declare const AGENT_ANTHROPIC_ID: string;
declare const AGENT_JSONRPC_ID: string;
declare const AGENT_TOOLS_ID: string;

/**
 * One per process, not per copy of this module: program.cjs carries a copy of its own, and a library loaded twice
 * would be two zods (two classes, two configurations).
 */
const loaded: Map<string, Record<string, unknown>> = ((globalThis as Record<symbol, unknown>)[Symbol.for("agent.cachedBundles")] ??= new Map()) as Map<
  string,
  Record<string, unknown>
>;

/** A bundle in dist/ (`name` relative to dist/chunks/, where this module is), run once. */
export function cachedBundle(name: string, buildId: string): Record<string, unknown> {
  let exports = loaded.get(name);
  if (!exports) {
    exports = loadCachedScript({ file: fileURLToPath(new URL(name, import.meta.url)), buildId, cacheDir: codeCacheDir() }) as Record<string, unknown>;
    loaded.set(name, exports);
  }
  return exports;
}

export function vendorBundle(): Record<string, unknown> {
  return cachedBundle("../vendor.cjs", AGENT_VENDOR_ID);
}

export function commanderBundle(): Record<string, unknown> {
  return cachedBundle("../vendor-commander.cjs", AGENT_COMMANDER_ID);
}

export function anthropicBundle(): Record<string, unknown> {
  return cachedBundle("../vendor-anthropic.cjs", AGENT_ANTHROPIC_ID);
}

export function jsonrpcBundle(): Record<string, unknown> {
  return cachedBundle("../vendor-jsonrpc.cjs", AGENT_JSONRPC_ID);
}

/** The libraries program.cjs leaves out of its own source (scripts/build.mjs): the tools' walkers, execa, ajv …. */
export function toolsBundle(): Record<string, unknown> {
  return cachedBundle("../vendor-tools.cjs", AGENT_TOOLS_ID);
}

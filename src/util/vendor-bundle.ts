/**
 * The libraries the build puts in dist/vendor.cjs (zod, openai) and dist/vendor-commander.cjs (commander, which
 * the TUI's first frame needs without the others; see scripts/build.mjs), each loaded once through V8's code cache. Only the built bundle imports this; from source the packages are imported
 * as they are.
 */
import { fileURLToPath } from "node:url";
import { codeCacheDir } from "./cache-dir.js";
import { loadCachedScript } from "./code-cache.js";

declare const AGENT_VENDOR_ID: string;
declare const AGENT_COMMANDER_ID: string;

let loaded: Record<string, unknown> | undefined;

export function vendorBundle(): Record<string, unknown> {
  loaded ??= loadCachedScript({
    // The bundle's chunks are in dist/chunks/; the vendor bundle beside them in dist/.
    file: fileURLToPath(new URL("../vendor.cjs", import.meta.url)),
    buildId: AGENT_VENDOR_ID,
    cacheDir: codeCacheDir(),
  }) as Record<string, unknown>;
  return loaded;
}

let commander: Record<string, unknown> | undefined;

export function commanderBundle(): Record<string, unknown> {
  commander ??= loadCachedScript({
    file: fileURLToPath(new URL("../vendor-commander.cjs", import.meta.url)),
    buildId: AGENT_COMMANDER_ID,
    cacheDir: codeCacheDir(),
  }) as Record<string, unknown>;
  return commander;
}

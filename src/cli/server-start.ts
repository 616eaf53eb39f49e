/**
 * The Copilot SDK's server mode started without Node's ES module loader: bin/agent.js requires this as the
 * CommonJS script dist/chunks/server-start.cjs (scripts/build.mjs), as it does a `-p` run's start (one-shot.ts).
 * The loader's own modules and the linking of the front's ES module chunks were ~15–20 ms of every SDK
 * application's start() (docs/benchmarks.md). dist/cli.js (main.ts) runs the same function for a server
 * command line it is given.
 */
import { enableModuleCompileCache, noteCompilerSettings } from "../util/code-cache.js";
import { tuneServerStart } from "../util/one-shot-tuning.js";
import { cachedBundle } from "../util/vendor-bundle.js";
import { provideEsmEntries, v8Tuning, type EsmEntry } from "./one-shot.js";

declare const AGENT_SERVER_FRONT_ID: string | undefined;

/**
 * The front (server-mode.ts): in the build, its own script, dist/chunks/server-front.cjs, run through V8's code cache
 * (compiled from source it was ~1.5 ms of every start, docs/benchmarks.md); from source (tests), the ES module.
 */
function frontModule(): Promise<typeof import("./server-mode.js")> {
  if (typeof AGENT_SERVER_FRONT_ID !== "string") return import("./server-mode.js");
  return Promise.resolve(cachedBundle("server-front.cjs", AGENT_SERVER_FRONT_ID) as typeof import("./server-mode.js"));
}

/**
 * Serves the protocol until the client is done. The handshake is answered before the command line and the engine
 * load: the engine comes from the program's script once that is done (server-mode.ts). The first second is a one-shot
 * run's (load, answer, open a session, read a stream): TurboFan and the old generation's incremental marking wait
 * for it (one-shot-tuning.ts), and the caches it writes are named for that.
 */
export async function startServer(args: readonly string[], importEntry: (entry: EsmEntry) => Promise<unknown>): Promise<number> {
  enableModuleCompileCache();
  if (tuneServerStart(v8Tuning())) noteCompilerSettings("server");
  provideEsmEntries(importEntry);
  // The front only now, after the tuning: its script's code cache (and vscode-jsonrpc's) is named for the settings it
  // loads under, and one loaded before them would be refused (and rewritten) by every start.
  const { runServer } = await frontModule();
  return runServer(args);
}

/** Where the agent keeps what it can always make again (compiled code): machine-local, per user, not AGENT_HOME's settings. */
import os from "node:os";
import path from "node:path";

/** $XDG_CACHE_HOME/agent (when absolute), else ~/.cache/agent; undefined when AGENT_NO_CODE_CACHE is set. */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env["AGENT_NO_CODE_CACHE"]) return undefined;
  const base = env["XDG_CACHE_HOME"] && path.isAbsolute(env["XDG_CACHE_HOME"]) ? env["XDG_CACHE_HOME"] : path.join(os.homedir(), ".cache");
  return path.join(base, "agent");
}

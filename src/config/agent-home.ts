import os from "node:os";
import path from "node:path";

/** Where settings, sessions and remembered approvals live: $AGENT_HOME, else ~/.agent. */
export function resolveAgentHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.AGENT_HOME?.trim();
  if (fromEnv) return path.resolve(fromEnv);
  return path.join(os.homedir(), ".agent");
}

export function sessionStateDir(agentHome: string): string {
  return path.join(agentHome, "session-state");
}

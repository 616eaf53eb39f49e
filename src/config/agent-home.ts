/**
 * The agent's homes. Ours ($AGENT_HOME, else ~/.agent) holds everything the agent writes. Copilot CLI's
 * ($COPILOT_HOME, else ~/.copilot when it exists and AGENT_HOME is not set) is read as well, so a Copilot
 * user's agents, hooks, MCP servers and trusted folders work without copying; ours wins where both define
 * the same thing, and nothing is ever written there.
 */
import { existsSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/** Where settings, sessions and remembered approvals live: $AGENT_HOME, else ~/.agent. */
export function resolveAgentHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.AGENT_HOME?.trim();
  if (fromEnv) return path.resolve(fromEnv);
  return path.join(os.homedir(), ".agent");
}

/**
 * Copilot CLI's home, read as an extra source: $COPILOT_HOME whenever it is set; otherwise ~/.copilot when it
 * exists and AGENT_HOME is not set (a person who chose an AGENT_HOME chose what the agent reads).
 */
export function resolveCopilotHome(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const fromEnv = env.COPILOT_HOME?.trim();
  if (fromEnv) return path.resolve(fromEnv);
  if (env.AGENT_HOME?.trim()) return undefined;
  const home = path.join(env.HOME?.trim() || os.homedir(), ".copilot");
  return existsSync(home) ? home : undefined;
}

/** Both homes: ours (read and written) and Copilot's (read only), when there is one. */
export interface Homes {
  agentHome: string;
  copilotHome?: string;
}

export function resolveHomes(env: NodeJS.ProcessEnv = process.env): Homes {
  const copilotHome = resolveCopilotHome(env);
  return { agentHome: resolveAgentHome(env), ...(copilotHome ? { copilotHome } : {}) };
}

function sameFolder(a: string, b: string): boolean {
  try {
    return realpathSync.native(a) === realpathSync.native(b);
  } catch {
    return path.resolve(a) === path.resolve(b);
  }
}

/**
 * The folders a kind of user file is read from (`agents`, `hooks`, and `skills` when they come), lowest
 * precedence first: Copilot's home, then ours, so a later one's file of the same name wins. With no `sub`,
 * the homes themselves (for `mcp-config.json` and `config.json`).
 */
export function userFolders(homes: Homes, sub?: string): string[] {
  const roots = homes.copilotHome && !sameFolder(homes.copilotHome, homes.agentHome) ? [homes.copilotHome, homes.agentHome] : [homes.agentHome];
  return sub ? roots.map((root) => path.join(root, sub)) : roots;
}

export function sessionStateDir(agentHome: string): string {
  return path.join(agentHome, "session-state");
}

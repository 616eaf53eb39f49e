/**
 * Folder trust: repository-level files that run code (hooks, later MCP servers) load only in a folder the
 * person trusted. Copilot's file and key: `$AGENT_HOME/config.json` `{"trustedFolders": [...]}`; a trusted
 * folder covers its subfolders. Other keys of the file are kept as they are.
 */
import { readFileSync, realpathSync } from "node:fs";
import { makePrivateDir, replacePrivateFile } from "../util/private-files.js";
import path from "node:path";

export const configFilePath = (agentHome: string): string => path.join(agentHome, "config.json");

function readConfig(agentHome: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(configFilePath(agentHome), "utf8"));
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function real(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

export function trustedFolders(agentHome: string): string[] {
  const list = readConfig(agentHome).trustedFolders;
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === "string") : [];
}

export function isFolderTrusted(agentHome: string, dir: string): boolean {
  const target = real(dir);
  return trustedFolders(agentHome).some((folder) => {
    const root = real(folder);
    return target === root || target.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
  });
}

/** Remembers `dir` as trusted (the "always" answer). */
export function trustFolder(agentHome: string, dir: string): void {
  const config = readConfig(agentHome);
  const folders = trustedFolders(agentHome);
  const target = real(dir);
  if (folders.includes(target)) return;
  makePrivateDir(agentHome);
  replacePrivateFile(configFilePath(agentHome), `${JSON.stringify({ ...config, trustedFolders: [...folders, target] }, null, 2)}\n`);
}

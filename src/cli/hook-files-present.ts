/**
 * Whether any hook could be configured here, found with directory listings alone: the hook code (and its
 * schemas) loads only when there is something to load.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { userFolders, type Homes } from "../config/agent-home.js";
import type { Settings } from "../config/settings.js";
import { findGitRoot } from "../util/git-root.js";
import { pluginHookDocuments } from "./plugin-hooks.js";

function hasJsonFiles(dir: string): boolean {
  try {
    return readdirSync(dir).some((name) => name.endsWith(".json"));
  } catch {
    return false;
  }
}

/** The repository's `.github/hooks` holds hook files. */
export function repoHasHookFiles(cwd: string): boolean {
  const gitRoot = findGitRoot(cwd)?.root;
  return gitRoot !== undefined && hasJsonFiles(path.join(gitRoot, ".github", "hooks"));
}

/** settings.json's `policyHooksFailOpen`: a broken preToolUse or permissionRequest hook is ignored instead of denying. */
export const hookPolicy = (settings: Settings): { failOpen: boolean } => ({ failOpen: settings.policyHooksFailOpen === true });

/** Any hook file or inline settings hooks exist (user's in either home, a plugin's, repository, settings.json). */
export function anyHooksConfigured(homes: Homes, cwd: string, settings: Settings, pluginDirs?: readonly string[]): boolean {
  return (
    settings.hooks !== undefined ||
    userFolders(homes, "hooks").some(hasJsonFiles) ||
    repoHasHookFiles(cwd) ||
    pluginHookDocuments(homes.agentHome, pluginDirs).length > 0
  );
}

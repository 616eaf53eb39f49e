/**
 * Which hooks a session gets: none with --no-hooks or settings' disableAllHooks; user and settings hooks
 * always; the repository's (`<git root>/.github/hooks`) only in a trusted folder. Nothing is read when hooks
 * are off, and a folder without hook files costs a directory listing or two.
 */
import { configFilePath, isFolderTrusted } from "../config/folder-trust.js";
import { settingsPath, type Settings } from "../config/settings.js";
import { HookSet } from "../hooks/hook-set.js";
import { collectHooks, hookFilesIn, readHookFiles, repoHooksDir } from "../hooks/load-hooks.js";
import path from "node:path";
import { findGitRoot } from "../util/git-root.js";

export interface HookConfigInput {
  agentHome: string;
  cwd: string;
  settings: Settings;
  /** false with --no-hooks. */
  enabled: boolean;
}

export interface HookConfig {
  /** Repository hook files that want to run here; empty when there are none or hooks are off. */
  repoFiles: string[];
  /** The folder is trusted (repository hooks may run without asking). */
  trusted: boolean;
  /** What the repository's hooks would run, one line each, for the trust question. */
  repoCommands(): string[];
  /** Loads the hooks, with the repository's when `includeRepo`. */
  load(includeRepo: boolean): HookSet | undefined;
}

export function hookConfig(input: HookConfigInput): HookConfig {
  if (!input.enabled || input.settings.disableAllHooks === true) return { repoFiles: [], trusted: false, repoCommands: () => [], load: () => undefined };
  const gitRoot = findGitRoot(input.cwd)?.root;
  const repoFiles = gitRoot ? hookFilesIn(repoHooksDir(gitRoot)) : [];
  const trusted = repoFiles.length > 0 && isFolderTrusted(input.agentHome, input.cwd);
  return {
    repoFiles,
    trusted,
    repoCommands: () => {
      const root = gitRoot ?? input.cwd;
      const { hooks, problems } = readHookFiles(repoFiles, "repo", root);
      return [
        ...hooks.map((hook) => `${hook.event}: ${hook.command} (${path.relative(root, hook.source.file)})`),
        ...problems.map((problem) => `(not loadable) ${problem}`),
      ];
    },
    load: (includeRepo) => {
      const { hooks, problems } = collectHooks({
        agentHome: input.agentHome,
        cwd: input.cwd,
        ...(gitRoot ? { gitRoot } : {}),
        settingsHooks: input.settings.hooks,
        settingsFile: settingsPath(input.agentHome),
        includeRepo,
      });
      return hooks.length > 0 || problems.length > 0 ? new HookSet(hooks, input.cwd, problems) : undefined;
    },
  };
}

/** What `-p` prints when it leaves a repository's hooks out. */
export function untrustedNote(repoFiles: readonly string[], cwd: string, agentHome: string): string {
  return (
    `this folder is not trusted, so its repository hooks did not run (${repoFiles.join(", ")}). ` +
    `To trust it, add "${cwd}" to "trustedFolders" in ${configFilePath(agentHome)}, or start agent here without -p and choose to trust it.`
  );
}

/**
 * Which hooks a session gets: none with --no-hooks or settings' disableAllHooks; user, enabled plugins' and
 * settings hooks always; the repository's (`<git root>/.github/hooks`) only where folder trust lets them run (the git root's
 * trust: trusting a subfolder does not trust the root's hooks). Nothing is read when hooks are off, and a
 * folder without hook files costs a directory listing or two.
 */
import { howToTrust, mayRun, type TrustSources } from "../config/folder-trust.js";
import { settingsPath, type Settings } from "../config/settings.js";
import { HookSet } from "../hooks/hook-set.js";
import { collectHooks, hookFilesIn, repoHooksDir } from "../hooks/load-hooks.js";
import { findGitRoot } from "../util/git-root.js";
import { hookPolicy } from "./hook-files-present.js";
import { pluginHookDocuments } from "./plugin-hooks.js";

export interface HookConfigInput extends TrustSources {
  cwd: string;
  settings: Settings;
  /** false with --no-hooks. */
  enabled: boolean;
  /** --plugin-dir folders (installed plugins are read from the agent's home). */
  pluginDirs?: readonly string[];
}

export interface HookConfig {
  /** Repository hook files that want to run here; empty when there are none or hooks are off. */
  repoFiles: string[];
  /** Folder trust lets them run (repository hooks may run without asking). */
  trusted: boolean;
  /** The folder whose trust they wait for (the git root). */
  trustFolder?: string;
  /** Loads the hooks, with the repository's when `includeRepo`. */
  load(includeRepo: boolean): HookSet | undefined;
}

export function hookConfig(input: HookConfigInput): HookConfig {
  if (!input.enabled || input.settings.disableAllHooks === true) return { repoFiles: [], trusted: false, load: () => undefined };
  const gitRoot = findGitRoot(input.cwd)?.root;
  const repoFiles = gitRoot ? hookFilesIn(repoHooksDir(gitRoot)) : [];
  const verdict = repoFiles[0] ? mayRun(repoFiles[0], "repository", input) : undefined;
  return {
    repoFiles,
    trusted: verdict?.allowed === true,
    ...(verdict && !verdict.allowed ? { trustFolder: verdict.folder } : {}),
    load: (includeRepo) => {
      const { hooks, problems } = collectHooks({
        agentHome: input.agentHome,
        ...(input.copilotHome ? { copilotHome: input.copilotHome } : {}),
        cwd: input.cwd,
        ...(gitRoot ? { gitRoot } : {}),
        settingsHooks: input.settings.hooks,
        settingsFile: settingsPath(input.agentHome),
        includeRepo,
        plugins: pluginHookDocuments(input.agentHome, input.pluginDirs),
      });
      return hooks.length > 0 || problems.length > 0 ? new HookSet(hooks, input.cwd, problems, hookPolicy(input.settings)) : undefined;
    },
  };
}

/** What a face without anyone to ask says when it leaves a repository's hooks out. */
export function untrustedNote(config: Pick<HookConfig, "repoFiles" | "trustFolder">, agentHome: string): string {
  const folder = config.trustFolder ?? "this folder";
  return `${folder} is not a trusted folder, so its repository hooks did not run (${config.repoFiles.join(", ")}). ${howToTrust(folder, agentHome)}`;
}

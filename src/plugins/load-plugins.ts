/**
 * The plugins a session runs with: the installed ones that are enabled (installing or enabling one is the
 * user's decision to run its hooks and servers) and each `--plugin-dir` folder, for this run only (it wins
 * over an installed plugin of the same name). A plugin that cannot be read is reported and left out.
 */
import { readPluginFolder, type PluginParts } from "./plugin-manifest.js";
import { pluginDir, PluginStoreError, readInstalled } from "./plugin-store.js";

export interface LoadedPlugin {
  name: string;
  version?: string;
  description?: string;
  root: string;
  /** `installed` (agent plugin install) or `plugin-dir` (--plugin-dir, this run only). */
  origin: "installed" | "plugin-dir";
  parts: PluginParts;
}

export interface PluginLoadResult {
  plugins: LoadedPlugin[];
  /** One sentence each, for session.warning / stderr. */
  problems: string[];
}

export interface PluginLocations {
  agentHome: string;
  /** --plugin-dir folders. */
  pluginDirs?: readonly string[];
}

export function loadPlugins(locations: PluginLocations): PluginLoadResult {
  const plugins: LoadedPlugin[] = [];
  const problems: string[] = [];
  const add = (folder: string, origin: LoadedPlugin["origin"], expectedName?: string) => {
    const read = readPluginFolder(folder);
    if (!read.ok) {
      problems.push(`Plugin not loaded: ${read.message}`);
      return;
    }
    const { manifest, root, parts } = read.plugin;
    if (expectedName && manifest.name !== expectedName) {
      problems.push(`Plugin not loaded: ${root} names itself "${manifest.name}" but is installed as "${expectedName}"; reinstall it.`);
      return;
    }
    problems.push(...read.plugin.problems.map((problem) => `Plugin ${manifest.name}: ${problem}`));
    if (plugins.some((plugin) => plugin.name === manifest.name)) return;
    plugins.push({
      name: manifest.name,
      ...(manifest.version ? { version: manifest.version } : {}),
      ...(manifest.description ? { description: manifest.description } : {}),
      root,
      origin,
      parts,
    });
  };
  for (const dir of locations.pluginDirs ?? []) add(dir, "plugin-dir");
  let installed: ReturnType<typeof readInstalled> = [];
  try {
    installed = readInstalled(locations.agentHome);
  } catch (error) {
    if (!(error instanceof PluginStoreError)) throw error;
    problems.push(`Installed plugins not loaded: ${error.message}`);
  }
  for (const record of installed) if (record.enabled !== false) add(pluginDir(locations.agentHome, record.name), "installed", record.name);
  return { plugins, problems };
}

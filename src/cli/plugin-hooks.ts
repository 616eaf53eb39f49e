/** The enabled plugins' hook documents, as the hook loader takes them (installed plugins, then --plugin-dir). */
import type { PluginHookDocument } from "../hooks/load-hooks.js";
import { loadPlugins } from "../plugins/load-plugins.js";
import { pluginRootEnv } from "../plugins/plugin-manifest.js";

export function pluginHookDocuments(agentHome: string, pluginDirs?: readonly string[]): PluginHookDocument[] {
  const { plugins } = loadPlugins({ agentHome, ...(pluginDirs ? { pluginDirs } : {}) });
  return plugins.flatMap((plugin) =>
    plugin.parts.hooks.map((document) => ({ plugin: plugin.name, ...document, root: plugin.root, env: pluginRootEnv(plugin.root) })),
  );
}

/**
 * The user's plugins over the SDK (plugins.*), by the same operations as `agent plugin`: installed under
 * $AGENT_HOME/plugins, enabled or disabled for new sessions, fetched again from where they came from. A
 * plugin is named `<plugin>@<marketplace>` or by its name alone; one installed from a path or URL has no
 * marketplace (its name is its `directSourceId`), and installing that way is deprecated, as in Copilot.
 */
import { z } from "zod";
import {
  addMarketplace,
  findMarketplace,
  installPlugin,
  listMarketplaces,
  readInstalled,
  refreshMarketplace,
  removeMarketplace,
  removePlugin,
  setPluginEnabled,
  updatePlugin,
  type InstalledPluginRecord,
} from "../../core/index.js";
import type { MethodTable } from "./owned-session.js";
import type { PLUGIN_METHODS } from "./skill-method-names.js";

const sourceSchema = z.looseObject({ source: z.string().min(1) });
const nameSchema = z.looseObject({ name: z.string().min(1) });
const namesSchema = z.looseObject({ names: z.array(z.string().min(1)) });
const optionalNameSchema = z.looseObject({ name: z.string().min(1).optional() });

const DIRECT_INSTALL_DEPRECATED =
  "Installing a plugin directly from a path or URL is deprecated: add a marketplace (plugins.marketplaces.add) and install <plugin>@<marketplace>.";

const marketplaceOf = (record: InstalledPluginRecord) => (record.source.kind === "marketplace" ? record.source.marketplace : "");

function info(record: InstalledPluginRecord) {
  const marketplace = marketplaceOf(record);
  return {
    name: record.name,
    marketplace,
    ...(marketplace ? {} : { directSourceId: record.name }),
    ...(record.version ? { version: record.version } : {}),
    enabled: record.enabled,
  };
}

/** `<plugin>@<marketplace>` names the plugin `<plugin>` (installed names are unique here). */
const pluginName = (spec: string) => spec.replace(/@[^@/\\]+$/, "");

/** `context`: the server's home (plugins live in $AGENT_HOME/plugins) and the folder relative sources resolve against. */
export function pluginMethods(context: { agentHome: string; cwd: string }): MethodTable<(typeof PLUGIN_METHODS)[number]> {
  const { agentHome, cwd } = context;
  const toggle = (enabled: boolean) => (_link: unknown, params: unknown) => {
    for (const name of namesSchema.parse(params).names) setPluginEnabled(agentHome, pluginName(name), enabled);
    return {};
  };
  const update = async (name: string) => {
    const result = await updatePlugin(agentHome, name, cwd);
    return {
      ...(result.previousVersion ? { previousVersion: result.previousVersion } : {}),
      ...(result.record.version ? { newVersion: result.record.version } : {}),
      skillsInstalled: result.skills,
    };
  };
  return {
    "plugins.list": () => ({ plugins: readInstalled(agentHome).map(info) }),
    "plugins.install": async (_link, params) => {
      const { source } = sourceSchema.parse(params);
      const result = await installPlugin(agentHome, source, cwd);
      const direct = result.record.source.kind !== "marketplace";
      return { plugin: info(result.record), skillsInstalled: result.skills, ...(direct ? { deprecationWarning: DIRECT_INSTALL_DEPRECATED } : {}) };
    },
    "plugins.uninstall": (_link, params) => {
      removePlugin(agentHome, pluginName(nameSchema.parse(params).name));
      return {};
    },
    "plugins.update": (_link, params) => update(pluginName(nameSchema.parse(params).name)),
    "plugins.updateAll": async () => {
      const results = [];
      for (const record of readInstalled(agentHome)) {
        const entry = { name: record.name, marketplace: marketplaceOf(record) };
        try {
          results.push({ ...entry, success: true, ...(await update(record.name)) });
        } catch (error) {
          results.push({ ...entry, success: false, skillsInstalled: 0, error: (error as Error).message });
        }
      }
      return { results };
    },
    "plugins.enable": toggle(true),
    "plugins.disable": toggle(false),
    "plugins.marketplaces.list": () => ({
      marketplaces: listMarketplaces(agentHome).map((record) => ({
        name: record.name,
        source: record.source.kind === "local" ? record.source.path : record.source.url,
        isDefault: false,
      })),
    }),
    "plugins.marketplaces.add": async (_link, params) => ({ name: (await addMarketplace(agentHome, sourceSchema.parse(params).source, cwd)).manifest.name }),
    "plugins.marketplaces.remove": (_link, params) => ({ removed: removeMarketplace(agentHome, nameSchema.parse(params).name) }),
    "plugins.marketplaces.browse": (_link, params) => ({
      plugins: findMarketplace(agentHome, nameSchema.parse(params).name).manifest.plugins.map((entry) => ({
        name: entry.name,
        ...(entry.description ? { description: entry.description } : {}),
        ...(entry.version ? { version: entry.version } : {}),
      })),
    }),
    "plugins.marketplaces.refresh": async (_link, params) => {
      const { name } = optionalNameSchema.parse(params ?? {});
      const names = name ? [name] : listMarketplaces(agentHome).map((record) => record.name);
      const results = [];
      for (const each of names) {
        try {
          await refreshMarketplace(agentHome, each);
          results.push({ name: each, success: true });
        } catch (error) {
          results.push({ name: each, success: false, error: (error as Error).message });
        }
      }
      return { results };
    },
  };
}

/**
 * What `agent plugin …` and the TUI's `/plugin …` both do, as text for a person: list the installed plugins
 * (and where the ones a session runs came from), install, update, remove, enable, disable. Each install or
 * enable says which programs the plugin will run, since that is the moment the user allows them.
 */
import { partsSummary, programsItRuns } from "./describe-plugin.js";
import { installPlugin, removePlugin, setPluginEnabled, updatePlugin, type InstallResult } from "./install-plugin.js";
import { readPluginFolder } from "./plugin-manifest.js";
import { pluginDir, readInstalled, type InstalledPluginRecord, type PluginSource } from "./plugin-store.js";

function describeSource(source: PluginSource): string {
  switch (source.kind) {
    case "local":
      return source.path;
    case "git":
      return `${source.url}${source.ref ? `#${source.ref}` : ""}`;
    case "marketplace":
      return `${source.plugin}@${source.marketplace}`;
  }
}

function recordLine(agentHome: string, record: InstalledPluginRecord): string {
  const read = readPluginFolder(pluginDir(agentHome, record.name));
  const parts = read.ok ? partsSummary(read.plugin.parts) : `cannot be read: ${read.message}`;
  return `  ${record.enabled ? "●" : "○"} ${record.name}${record.version ? ` ${record.version}` : ""}${record.enabled ? "" : " (disabled)"} · ${parts} · from ${describeSource(record.source)}`;
}

export function listInstalledText(agentHome: string): string {
  const records = readInstalled(agentHome);
  if (records.length === 0) return "No plugins installed. Install one with: agent plugin install <folder|git URL|plugin@marketplace>";
  return [`Installed plugins (${pluginDir(agentHome, "")}):`, ...records.map((record) => recordLine(agentHome, record))].join("\n");
}

/** What an install or update did, and what the plugin will run from now on. */
export function installedText(result: InstallResult, verb: "Installed" | "Updated"): string {
  const { manifest, parts } = result.plugin;
  const programs = programsItRuns(parts);
  const version = result.previousVersion && result.previousVersion !== manifest.version ? ` (was ${result.previousVersion})` : "";
  return [
    `${verb} plugin ${manifest.name}${manifest.version ? ` ${manifest.version}` : ""}${version}: ${partsSummary(parts)}.`,
    ...(manifest.description ? [`  ${manifest.description}`] : []),
    ...(programs.length > 0 && result.record.enabled
      ? ["It runs these programs in your sessions (new sessions from now on):", ...programs.map((line) => `  ${line}`)]
      : []),
    ...(result.plugin.problems.length > 0 ? result.plugin.problems.map((problem) => `  warning: ${problem}`) : []),
    ...(manifest.postInstallMessage ? [manifest.postInstallMessage] : []),
  ].join("\n");
}

export async function installText(agentHome: string, spec: string, cwd: string): Promise<string> {
  return installedText(await installPlugin(agentHome, spec, cwd), "Installed");
}

export async function updateText(agentHome: string, name: string, cwd: string): Promise<string> {
  return installedText(await updatePlugin(agentHome, name, cwd), "Updated");
}

export function removeText(agentHome: string, name: string): string {
  removePlugin(agentHome, name);
  return `Removed plugin ${name}.`;
}

export function setEnabledText(agentHome: string, name: string, enabled: boolean): string {
  const changed = setPluginEnabled(agentHome, name, enabled);
  if (!changed) return `Plugin ${name} is already ${enabled ? "enabled" : "disabled"}.`;
  if (!enabled) return `Plugin ${name} disabled: new sessions do not load it.`;
  const read = readPluginFolder(pluginDir(agentHome, name));
  const programs = read.ok ? programsItRuns(read.plugin.parts) : [];
  return [`Plugin ${name} enabled for new sessions.`, ...(programs.length > 0 ? ["It runs:", ...programs.map((line) => `  ${line}`)] : [])].join("\n");
}
